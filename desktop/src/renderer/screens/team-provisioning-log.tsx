// The Enterprise SSO tab's provisioning log: the team's latest SCIM changes in words (who or what, by which token),
// newest first, a page at a time; a skeleton while loading, an empty state, an error with a retry.
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { AuditLogEntry, ServerTeam } from '@gatehouse/shared/client';
import { EmptyState } from '../components/empty-state';
import { ErrorMessage } from '../components/error-message';
import { ListSkeleton } from '../components/screen-boundary';
import { useProvisioningLog } from '../hooks/use-provisioning-log';
import { useScimGroups, useScimTokens } from '../hooks/use-team-enterprise';
import { formatDateTime } from '../lib/format';
import { groupNames, provisioningWords, subjectName, tokenName } from '../lib/provisioning-log';
import { t } from '../messages';

export function TeamProvisioningLogCard({ team }: { team: ServerTeam }) {
  const log = useProvisioningLog(team);
  return (
    <Card withBorder padding="lg" component="section" aria-label={t('enterprise.log')}>
      <Stack>
        <Title order={2} size="h4">{t('enterprise.log')}</Title>
        <Text size="sm" c="dimmed">{t('enterprise.logIntro')}</Text>
        {log.entries === null && log.error ? (
          <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('common.errorTitle')} role="alert">
            <Stack gap="sm" align="flex-start">
              <span data-testid="provisioning-log-error"><ErrorMessage error={log.error} /></span>
              <Button size="xs" variant="default" onClick={log.reload}>{t('common.retry')}</Button>
            </Stack>
          </Alert>
        ) : log.entries === null ? <ListSkeleton rows={3} /> : log.entries.length === 0 ? (
          <EmptyState text={t('enterprise.logEmpty')} />
        ) : (
          <Stack gap="sm">
            <LogEntries team={team} entries={log.entries} userLabels={log.userLabels} />
            {log.error && <Alert color="red" role="alert"><ErrorMessage error={log.error} /></Alert>}
            {log.hasMore && (
              <Group justify="center">
                <Button variant="default" loading={log.loadingMore} onClick={log.loadMore}>{t('enterprise.logMore')}</Button>
              </Group>
            )}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

function LogEntries({ team, entries, userLabels }: { team: ServerTeam; entries: readonly AuditLogEntry[]; userLabels: ReadonlyMap<string, string | null> }) {
  const tokens = useScimTokens(team);
  const names = groupNames(entries, useScimGroups(team));
  return (
    <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('enterprise.log')} data-testid="provisioning-log">
      {entries.map((e) => {
        const w = provisioningWords(e);
        const subject = subjectName(w, w.userId === null ? undefined : userLabels.get(w.userId), names);
        const token = tokenName(w.tokenId, tokens);
        const name = 'text' in subject ? subject.text : t(subject.key);
        return (
          <li key={e.id} data-testid="provisioning-entry">
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="provisioning-change">{t(w.key, { name })}</Text>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              <time dateTime={e.createdAt.toISOString()}>{formatDateTime(e.createdAt)}</time> · {t('enterprise.logToken')}: {'text' in token ? token.text : t(token.key)}
            </Text>
          </li>
        );
      })}
    </Stack>
  );
}
