// Sent emails: the project's mail (to, subject, sent at, error), newest first, filtered by address and by
// "failed only"; one mail opens in a detail view (sent-email-detail.tsx).
import { useState } from 'react';
import { Button, Card, Group, Stack, Switch, Table, Text, TextInput, useMatches } from '@mantine/core';
import type { AdminSentEmail } from '@gatehouse/shared/client';
import { EmptyState } from '../components/empty-state';
import { ListSkeleton } from '../components/screen-boundary';
import { ScreenHeader } from '../components/screen-header';
import { useSentEmails } from '../hooks/use-admin-loads';
import { formatDateTime } from '../lib/format';
import { filterSentEmails, hasFailed } from '../lib/sent-emails';
import { SentEmailDetail } from './sent-email-detail';
import { StatusBadge } from '../components/status-badge';
import { t } from '../messages';

export function SentEmailsScreen() {
  const emails = useSentEmails();
  const [address, setAddress] = useState('');
  const [failedOnly, setFailedOnly] = useState(false);
  const [detail, setDetail] = useState<AdminSentEmail | null>(null);
  if (emails.status === 'error') throw emails.error;
  const shown = emails.status === 'ok' ? filterSentEmails(emails.value, { address, failedOnly }) : [];
  // On a phone the subject, time and status go under the recipient: five columns scrolled sideways at 390 px.
  const minWidth = useMatches({ base: 0, sm: 720 });
  return (
    <Stack>
      <ScreenHeader title={t('sent.title')} />
      <Group align="flex-end" wrap="wrap">
        <TextInput label={t('sent.filterAddress')} value={address} onChange={(e) => setAddress(e.currentTarget.value)} style={{ flex: 1, minWidth: 240 }} />
        <Switch label={t('sent.failedOnly')} checked={failedOnly} onChange={(e) => setFailedOnly(e.currentTarget.checked)} mb={8} />
      </Group>
      {emails.status === 'loading' ? <ListSkeleton /> : emails.value.length === 0 ? <EmptyState text={t('sent.empty')} /> : shown.length === 0 ? <EmptyState text={t('sent.noMatch')} /> : (
        <Card withBorder padding={0}>
          <Table.ScrollContainer minWidth={minWidth}>
            <Table verticalSpacing="sm" horizontalSpacing="md" aria-label={t('sent.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('sent.to')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('sent.subject')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('sent.sentAt')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('sent.status')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((e) => (
                  <Table.Tr key={e.id} data-testid="sent-email-row">
                    <Table.Td>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{e.to.join(', ')}</Text>
                      <Stack gap={2} mt={4} hiddenFrom="sm" align="flex-start">
                        <Text size="xs" style={{ overflowWrap: 'anywhere' }}>{e.subject}</Text>
                        <Text size="xs" c="dimmed">{formatDateTime(e.sentAt)}</Text>
                        <StatusBadge color={hasFailed(e) ? 'red' : 'green'}>{t(hasFailed(e) ? 'sent.failed' : 'sent.ok')}</StatusBadge>
                      </Stack>
                    </Table.Td>
                    <Table.Td visibleFrom="sm"><Text size="sm" lineClamp={1}>{e.subject}</Text></Table.Td>
                    <Table.Td visibleFrom="sm"><Text size="sm">{formatDateTime(e.sentAt)}</Text></Table.Td>
                    <Table.Td visibleFrom="sm"><StatusBadge color={hasFailed(e) ? 'red' : 'green'}>{t(hasFailed(e) ? 'sent.failed' : 'sent.ok')}</StatusBadge></Table.Td>
                    <Table.Td ta="right">
                      <Button size="xs" variant="default" onClick={() => setDetail(e)} aria-label={`${t('sent.details')}: ${e.subject} → ${e.recipient}`}>{t('sent.details')}</Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      {detail && <SentEmailDetail email={detail} onClose={() => setDetail(null)} />}
    </Stack>
  );
}
