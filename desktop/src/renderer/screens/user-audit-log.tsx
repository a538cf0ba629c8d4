// A user's recent activity on their page: the newest entries of the audit log that concern them or that they did,
// and a link to the whole log filtered to them.
import { Alert, Anchor, Button, Group, Skeleton, Text } from '@mantine/core';
import type { ServerUser } from '@gatehouse/shared/client';
import { AuditLogTable } from '../components/audit-log-table';
import { ErrorMessage } from '../components/error-message';
import { SectionCard as Section } from '../components/section-card';
import { useAuditLog, useUserLabels } from '../hooks/use-audit-log';
import { navigate, useRoute } from '../hooks/use-route';
import { routeHash } from '../lib/routes';
import { userIdsOf } from '../lib/audit-log';
import { t } from '../messages';

const RECENT = 10;

export function UserActivitySection({ user }: { user: ServerUser }) {
  const route = useRoute();
  const log = useAuditLog({ userId: user.id, limit: RECENT });
  const labels = useUserLabels(userIdsOf(log.entries ?? []));
  const full = route.name === 'project' ? { ...route, screen: 'audit-log' as const, itemId: user.id } : null;
  return (
    <Section title={t('audit.userSection')}>
      {log.entries === null && log.error ? (
        <Alert color="red" role="alert">
          <Group justify="space-between"><span><ErrorMessage error={log.error} /></span><Button size="xs" variant="default" onClick={log.reload}>{t('common.retry')}</Button></Group>
        </Alert>
      ) : log.entries === null ? <Skeleton height={60} /> : log.entries.length === 0 ? <Text size="sm" c="dimmed">{t('audit.userSectionEmpty')}</Text> : (
        <AuditLogTable entries={log.entries} labels={labels} label={t('audit.userSection')} bare />
      )}
      {full && (
        <Anchor size="sm" href={routeHash(full)} onClick={(e) => { e.preventDefault(); navigate(full); }}>{t('audit.viewAll')}</Anchor>
      )}
    </Section>
  );
}
