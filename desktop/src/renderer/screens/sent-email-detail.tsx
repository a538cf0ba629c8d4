// One sent email, opened from the sent-email list: to whom, from whom, when, the error only for a failed one, and what
// was sent (HTML in a sandboxed frame, and the text) as the service recorded it, codes and links as placeholders.
import { Alert, Code, Modal, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import type { AdminSentEmail } from '@gatehouse/shared/client';
import { EmailFrame } from '../components/email-frame';
import { ErrorMessage } from '../components/error-message';
import { ListSkeleton } from '../components/screen-boundary';
import { StatusBadge } from '../components/status-badge';
import { useSentEmail } from '../hooks/use-admin-loads';
import { formatDateTime } from '../lib/format';
import { failureText, hasFailed } from '../lib/sent-emails';
import { t } from '../messages';

export function SentEmailDetail({ email, onClose }: { email: AdminSentEmail; onClose(): void }) {
  const detail = useSentEmail(email.id);
  const failed = hasFailed(email);
  return (
    <Modal opened onClose={onClose} title={t('sent.detailTitle', { subject: email.subject })} size="xl">
      <Stack data-testid="sent-email-detail">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          <Field label={t('sent.to')} value={email.to.join(', ')} />
          <Field label={t('sent.from')} value={detail.status === 'ok' ? `${detail.value.senderName} <${detail.value.senderEmail}>` : '…'} />
          <Field label={t('sent.sentAt')} value={formatDateTime(email.sentAt)} />
          <div>
            <Text size="xs" c="dimmed">{t('sent.status')}</Text>
            <StatusBadge color={failed ? 'red' : 'green'}>{t(failed ? 'sent.failed' : 'sent.ok')}</StatusBadge>
          </div>
        </SimpleGrid>
        {failed && (
          <Stack gap={4}>
            <Text size="sm" fw={600}>{t('sent.errorHeading')}</Text>
            <Code block tabIndex={0} data-testid="sent-email-error">{failureText(email.error)}</Code>
          </Stack>
        )}
        {detail.status === 'loading' && <ListSkeleton rows={2} />}
        {detail.status === 'error' && <Alert color="red" role="alert"><ErrorMessage error={detail.error} /></Alert>}
        {detail.status === 'ok' && (detail.value.html === null && detail.value.text === null ? (
          <Text size="sm" c="dimmed">{t('sent.noCopy')}</Text>
        ) : (
          <Stack gap="xs">
            <Text size="xs" c="dimmed">{t('sent.redactedNote')}</Text>
            <Tabs defaultValue={detail.value.html !== null ? 'html' : 'text'} keepMounted={false}>
              <Tabs.List>
                {detail.value.html !== null && <Tabs.Tab value="html">{t('sent.html')}</Tabs.Tab>}
                {detail.value.text !== null && <Tabs.Tab value="text">{t('sent.text')}</Tabs.Tab>}
              </Tabs.List>
              {detail.value.html !== null && (
                <Tabs.Panel value="html" pt="xs">
                  <EmailFrame html={detail.value.html} title={t('sent.bodyTitle', { subject: email.subject })} testId="sent-email-html" />
                </Tabs.Panel>
              )}
              {detail.value.text !== null && (
                <Tabs.Panel value="text" pt="xs">
                  <Code block tabIndex={0} data-testid="sent-email-text" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{detail.value.text}</Code>
                </Tabs.Panel>
              )}
            </Tabs>
          </Stack>
        ))}
      </Stack>
    </Modal>
  );
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{value}</Text>
    </div>
  );
}
