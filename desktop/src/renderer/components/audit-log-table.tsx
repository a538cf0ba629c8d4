// Audit log entries as a table (the Audit log screen and a user's Recent activity): time, event, actor, the user or
// thing it concerns (a user linked to their page), IP. On a phone the first column carries the others under it.
import { Anchor, Box, Card, Group, Stack, Table, Text, useMatches } from '@mantine/core';
import type { AuditLogEntry } from '@gatehouse/shared/client';
import { StatusBadge } from './status-badge';
import { navigate, useRoute } from '../hooks/use-route';
import { routeHash } from '../lib/routes';
import { formatDateTime } from '../lib/format';
import { actorWords, detailFacts, eventTone, subjectOf } from '../lib/audit-log';
import { t } from '../messages';

interface TableProps {
  entries: readonly AuditLogEntry[];
  /** Users' emails or names by id (null: no such user any more). */
  labels: ReadonlyMap<string, string | null>;
  label: string;
  busy?: boolean;
  /** Inside a section card already: no card of its own. */
  bare?: boolean;
}

export function AuditLogTable({ entries, labels, label, busy, bare }: TableProps) {
  const minWidth = useMatches({ base: 0, sm: 860 });
  const table = (
      <Table.ScrollContainer minWidth={minWidth}>
        <Table verticalSpacing="sm" horizontalSpacing="md" aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('audit.time')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('audit.event')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('audit.actor')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('audit.subject')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('audit.ip')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((e) => <EntryRow key={e.id} entry={e} labels={labels} />)}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
  );
  return bare ? <Box aria-busy={busy}>{table}</Box> : <Card withBorder padding={0} aria-busy={busy}>{table}</Card>;
}

function EntryRow({ entry: e, labels }: { entry: AuditLogEntry; labels: ReadonlyMap<string, string | null> }) {
  const event = (
    <Stack gap={2}>
      <StatusBadge color={eventTone(e.event)}>{t(`audit.event.${e.event}`)}</StatusBadge>
      <Facts entry={e} />
    </Stack>
  );
  const actor = <Actor entry={e} labels={labels} />;
  const subject = <Subject entry={e} labels={labels} />;
  // An IPv4 address on one line; a long IPv6 one may break.
  const ip = <Text size="sm" ff="monospace" style={{ whiteSpace: (e.actor.ip ?? '').length > 15 ? undefined : 'nowrap', overflowWrap: 'anywhere' }}>{e.actor.ip ?? '—'}</Text>;
  return (
    <Table.Tr data-testid="audit-row" data-event={e.event} data-user-id={e.userId ?? ''}>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.createdAt)}</Text>
        {/* A phone has no room for the columns beside: the same facts under the time. */}
        <Stack gap={4} mt={4} hiddenFrom="sm">
          {event}
          <Folded name={t('audit.actor')}>{actor}</Folded>
          <Folded name={t('audit.subject')}>{subject}</Folded>
          <Folded name={t('audit.ip')}>{ip}</Folded>
        </Stack>
      </Table.Td>
      <Table.Td visibleFrom="sm">{event}</Table.Td>
      <Table.Td visibleFrom="sm">{actor}</Table.Td>
      <Table.Td visibleFrom="sm">{subject}</Table.Td>
      <Table.Td visibleFrom="sm">{ip}</Table.Td>
    </Table.Tr>
  );
}

function Folded({ name, children }: { name: string; children: React.ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline">
      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>{name}:</Text>
      <Box style={{ minWidth: 0 }}>{children}</Box>
    </Group>
  );
}

function Facts({ entry }: { entry: AuditLogEntry }) {
  const facts = detailFacts(entry);
  if (!facts.length) return null;
  return (
    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      {facts.map((f) => `${t(`audit.fact.${f.name}`)}: ${f.value}`).join(' · ')}
    </Text>
  );
}

function Actor({ entry, labels }: { entry: AuditLogEntry; labels: ReadonlyMap<string, string | null> }) {
  const who = actorWords(entry);
  // Signing in, or ending their own session: the user it concerns acted, named once (in the next column).
  if (who.userId && who.userId === entry.userId) return <Text size="sm">{t('audit.actor.self')}</Text>;
  return (
    <Stack gap={0}>
      <Text size="sm">{t(who.key)}</Text>
      {who.userId && <UserLink userId={who.userId} labels={labels} />}
    </Stack>
  );
}

function Subject({ entry, labels }: { entry: AuditLogEntry; labels: ReadonlyMap<string, string | null> }) {
  const subject = subjectOf(entry);
  if (!subject) return <Text size="sm" c="dimmed">—</Text>;
  if ('userId' in subject) return <UserLink userId={subject.userId} labels={labels} />;
  return <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>{subject.id}</Text>;
}

/** A user of the project, linked to their page; a deleted one named as such, with the id. */
export function UserLink({ userId, labels }: { userId: string; labels: ReadonlyMap<string, string | null> }) {
  const route = useRoute();
  const label = labels.get(userId);
  if (label === null) return <Text size="sm" c="dimmed" title={userId}>{t('audit.unknownUser')}</Text>;
  if (route.name !== 'project') return <Text size="sm">{label ?? userId}</Text>;
  const target = { ...route, screen: 'users' as const, itemId: userId };
  return (
    <Anchor size="sm" href={routeHash(target)} data-testid="audit-user-link" style={{ overflowWrap: 'anywhere' }}
      onClick={(ev) => { ev.preventDefault(); navigate(target); }}>
      {label ?? userId}
    </Anchor>
  );
}
