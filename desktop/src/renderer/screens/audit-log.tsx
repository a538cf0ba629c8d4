// Audit log: the project's security events, newest first (sign-ins and failures, lockouts, password and MFA
// changes, ended sessions, API keys, impersonation, configuration), filtered by kind, time range and user, with
// "Load more" for older entries. `audit-log/<userId>` opens it filtered to that user (the user page links there).
import { useState } from 'react';
import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { AuditLogTable } from '../components/audit-log-table';
import { EmptyState } from '../components/empty-state';
import { ErrorMessage } from '../components/error-message';
import { ListSkeleton } from '../components/screen-boundary';
import { ScreenHeader } from '../components/screen-header';
import { useAuditLog, useUserLabels } from '../hooks/use-audit-log';
import { navigate, useRoute } from '../hooks/use-route';
import { useUserSearch } from '../hooks/use-user-search';
import { TIME_RANGES, auditFilter, isFilteredLog, isGroup, isTimeRange, kindChoices, userIdsOf, type TimeRange } from '../lib/audit-log';
import { t } from '../messages';

export function AuditLogScreen() {
  const route = useRoute();
  const userId = route.name === 'project' ? route.itemId ?? '' : '';
  const [kind, setKind] = useState('');
  const [range, setRange] = useState<{ range: TimeRange; at: number }>({ range: 'all', at: Date.now() });
  const values = { kind, range: range.range, userId };
  const log = useAuditLog(auditFilter(values, range.at));
  const labels = useUserLabels(userIdsOf(log.entries ?? []));
  const setUser = (id: string) => route.name === 'project' && navigate({ ...route, itemId: id || undefined });
  return (
    <Stack gap="lg">
      <ScreenHeader title={t('audit.title')} />
      <Text size="sm" c="dimmed" mt={-16}>{t('audit.intro')}</Text>
      <Group gap="sm" align="flex-end" wrap="wrap" role="group" aria-label={t('audit.filters')} data-testid="audit-filters">
        <Select label={t('audit.filterKind')} value={kind} onChange={(v) => setKind(v ?? '')} allowDeselect={false} style={{ flex: '1 1 220px' }}
          data={[{ value: '', label: t('audit.anyKind') }, ...kindChoices().map((c) => ({
            group: t(`audit.group.${c.group}` as 'audit.group.sign_in'),
            items: c.kinds.map((k) => ({ value: k, label: isGroup(k) ? t(`audit.all.${k}` as 'audit.all.sign_in') : t(`audit.event.${k}` as 'audit.event.sign_in.failed') })),
          }))]} />
        <Select label={t('audit.filterTime')} value={range.range} allowDeselect={false} style={{ flex: '1 1 160px' }}
          onChange={(v) => v && isTimeRange(v) && setRange({ range: v, at: Date.now() })}
          data={TIME_RANGES.map((r) => ({ value: r, label: t(`audit.range.${r}`) }))} />
        <UserSelect userId={userId} onChange={setUser} />
      </Group>
      {log.entries === null && log.error ? (
        <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('common.errorTitle')} role="alert">
          <Stack gap="sm" align="flex-start">
            <span data-testid="screen-error"><ErrorMessage error={log.error} /></span>
            <Button size="xs" variant="default" onClick={log.reload}>{t('common.retry')}</Button>
          </Stack>
        </Alert>
      ) : log.entries === null ? <ListSkeleton rows={6} /> : log.entries.length === 0 ? (
        <EmptyState text={t(isFilteredLog(values) ? 'audit.noMatch' : 'audit.empty')} />
      ) : (
        <Stack gap="sm">
          <AuditLogTable entries={log.entries} labels={labels} label={t('audit.title')} busy={log.loadingMore} />
          {log.error && <Alert color="red" role="alert"><ErrorMessage error={log.error} /></Alert>}
          {log.hasMore && (
            <Group justify="center">
              <Button variant="default" loading={log.loadingMore} onClick={log.loadMore}>{t('audit.loadMore')}</Button>
            </Group>
          )}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * The user filter: search the project's users by email or name; the chosen one stays named. Its clear button is a
 * real button (Mantine hides it from assistive technology and the keyboard by default).
 */
function UserSelect({ userId, onChange }: { userId: string; onChange(id: string): void }) {
  const [search, setSearch] = useState('');
  const found = useUserSearch(search.trim() || null);
  const chosen = useUserLabels(userId ? [userId] : []);
  const data = [
    ...(userId ? [{ value: userId, label: chosen.get(userId) ?? userId }] : []),
    ...found.users.filter((u) => u.id !== userId).map((u) => ({ value: u.id, label: u.primaryEmail ?? u.displayName ?? u.id })),
  ];
  return (
    <Select label={t('audit.filterUser')} placeholder={t('audit.userPlaceholder')} searchable clearable style={{ flex: '1 1 260px' }}
      value={userId || null} data={data} onSearchChange={setSearch} filter={({ options }) => options}
      nothingFoundMessage={search.trim() && found.status === 'ok' ? t('audit.userNothingFound') : undefined}
      clearButtonProps={{ 'aria-label': t('audit.clearUser'), 'aria-hidden': false, tabIndex: 0 }} onChange={(v) => onChange(v ?? '')} />
  );
}
