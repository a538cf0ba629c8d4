// How a user gets in: sign-in methods and MFA (turned off for a locked-out user), connected OAuth accounts,
// teams with their permissions, active sessions (revoke).
import { Suspense, useState } from 'react';
import { Alert, Badge, Button, Group, Skeleton, Stack, Switch, Table, Text, useMatches } from '@mantine/core';
import type { ActiveSession, ServerTeam, ServerUser } from '@gatehouse/shared/client';
import { StatusBadge } from '../components/status-badge';
import { useUserSessions } from '../hooks/use-admin-loads';
import { useUserTeamPermissions, useUserTeams } from '../hooks/use-user-reads';
import { formatDateTime } from '../lib/format';
import { t } from '../messages';
import { SectionCard as Section } from '../components/section-card';
import { runAction } from '../components/notify';
import { ErrorMessage } from '../components/error-message';

const act = (what: () => Promise<void>, done: string) => runAction(what, done);

export function SignInStateSection({ user }: { user: ServerUser }) {
  return (
    <Section title={t('users.signIn')}>
      <Group gap="xl" wrap="wrap">
        <StatusBadge color={user.hasPassword ? 'green' : 'gray'}>{user.hasPassword ? t('users.passwordSet') : t('users.passwordNotSet')}</StatusBadge>
        <Switch label={t('users.otpEnabled')} checked={user.otpAuthEnabled}
          onChange={(e) => act(() => user.update({ otpAuthEnabled: e.currentTarget.checked }), t('users.saved'))} />
        <Switch label={t('users.passkeyEnabled')} checked={user.passkeyAuthEnabled}
          onChange={(e) => act(() => user.update({ passkeyAuthEnabled: e.currentTarget.checked }), t('users.saved'))} />
      </Group>
      <Group gap="sm" wrap="wrap" data-testid="mfa-state">
        <StatusBadge color={user.isMultiFactorRequired ? 'green' : 'gray'}>{user.isMultiFactorRequired ? t('users.mfaOn') : t('users.mfaOff')}</StatusBadge>
        {user.isMultiFactorRequired && (
          <Button size="xs" variant="light" color="orange" onClick={() => act(() => user.update({ totpMultiFactorSecret: null }), t('users.mfaTurnedOff'))}>
            {t('users.mfaTurnOff')}
          </Button>
        )}
      </Group>
      <Text fw={600} size="sm">{t('users.oauthAccounts')}</Text>
      {user.oauthProviders.length === 0 ? <Text size="sm" c="dimmed">{t('users.noOauth')}</Text> : (
        <Stack gap={4}>
          {user.oauthProviders.map((p) => (
            <Group key={`${p.id}:${p.account_id}`} gap="xs" data-testid="oauth-account">
              <Badge variant="default">{p.id}</Badge>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{p.email ?? p.account_id}</Text>
              <Button size="compact-xs" variant="subtle" color="red" aria-label={t('users.oauthDisconnectLabel', { provider: p.id })}
                onClick={() => act(() => user.disconnectOAuthProvider(p.id), t('users.oauthDisconnected'))}>
                {t('users.oauthDisconnect')}
              </Button>
            </Group>
          ))}
        </Stack>
      )}
    </Section>
  );
}

export function TeamsSection({ user }: { user: ServerUser }) {
  const teams = useUserTeams(user);
  return (
    <Section title={t('users.teams')}>
      {teams.length === 0 ? <Text size="sm" c="dimmed">{t('users.noTeams')}</Text> : (
        <Stack gap="xs">
          {teams.map((team) => (
            <Group key={team.id} gap="sm" wrap="wrap" data-testid="user-team">
              <Text fw={600} size="sm">{team.displayName}</Text>
              <Suspense fallback={<Skeleton height={18} width={120} />}>
                <TeamPermissions user={user} team={team} />
              </Suspense>
            </Group>
          ))}
        </Stack>
      )}
    </Section>
  );
}

function TeamPermissions({ user, team }: { user: ServerUser; team: ServerTeam }) {
  const permissions = useUserTeamPermissions(user, team);
  if (permissions.length === 0) return <Text size="sm" c="dimmed">{t('users.noPermissions')}</Text>;
  return <Group gap={4}>{permissions.map((p) => <Badge key={p.id} size="sm" variant="default" tt="none">{p.id}</Badge>)}</Group>;
}

const lastUsed = (s: ActiveSession) => (s.lastUsedAt ? formatDateTime(s.lastUsedAt) : '—');
const place = (s: ActiveSession) => (s.geoInfo ? [s.geoInfo.cityName, s.geoInfo.countryCode].filter(Boolean).join(', ') || s.geoInfo.ip : '—');

export function SessionsSection({ user }: { user: ServerUser }) {
  const sessionsMinWidth = useMatches({ base: 0, sm: 520 });
  // The admin listing: it includes impersonation sessions, which the server listing hides.
  const sessions = useUserSessions(user.id);
  const [revoking, setRevoking] = useState<string | null>(null);
  return (
    <Section title={t('users.sessions')}>
      {sessions.status === 'loading' ? <Skeleton height={60} /> : sessions.status === 'error' ? (
        <Alert color="red" role="alert">
          <Group justify="space-between"><span><ErrorMessage error={sessions.error} /></span><Button size="xs" variant="default" onClick={sessions.reload}>{t('common.retry')}</Button></Group>
        </Alert>
      ) : sessions.value.length === 0 ? <Text size="sm" c="dimmed">{t('users.noSessions')}</Text> : (
        <Table.ScrollContainer minWidth={sessionsMinWidth}>
          <Table verticalSpacing="xs" aria-label={t('users.sessions')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('users.sessionCreated')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('users.sessionLastUsed')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('users.sessionPlace')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.value.map((s) => (
                <Table.Tr key={s.id} data-testid="session-row">
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Group gap={6} wrap="nowrap">
                      {formatDateTime(s.createdAt)}
                      {s.isImpersonation && <Badge size="xs" color="red.9">{t('users.impersonation')}</Badge>}
                    </Group>
                    {/* A phone shows the two columns after this one under it. */}
                    <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ whiteSpace: 'normal' }}>
                      {t('users.sessionLastUsed')}: {lastUsed(s)} · {t('users.sessionPlace')}: {place(s)}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>{lastUsed(s)}</Table.Td>
                  <Table.Td visibleFrom="sm">{place(s)}</Table.Td>
                  <Table.Td ta="right">
                    <Button size="xs" variant="subtle" color="red" loading={revoking === s.id} onClick={async () => {
                      setRevoking(s.id);
                      await act(() => user.revokeSession(s.id), t('users.sessionRevoked'));
                      setRevoking(null);
                      sessions.reload();
                    }} aria-label={t('users.revokeSession', { created: formatDateTime(s.createdAt) })}>{t('users.revoke')}</Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Section>
  );
}
