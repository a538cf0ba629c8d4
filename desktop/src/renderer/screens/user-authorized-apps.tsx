// A user's authorized apps on their page (issue 27): the OAuth clients of the project's OpenID provider they let sign
// them in, with the scopes allowed and when; Revoke withdraws the consent with the grants and tokens it gave (as the
// user's own "Connected apps" in the account kit).
import { useState } from 'react';
import { Alert, Avatar, Badge, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ConnectedApp, ServerUser } from '@gatehouse/shared/client';
import { ConfirmModal } from '../components/confirm-modal';
import { ErrorMessage } from '../components/error-message';
import { SectionCard as Section } from '../components/section-card';
import { useUserConsents } from '../hooks/use-admin-loads';
import { useProjectContext } from '../hooks/use-project-context';
import { formatDateTime } from '../lib/format';
import { initials } from '../lib/users';
import { t } from '../messages';

export function AuthorizedAppsSection({ user }: { user: ServerUser }) {
  const consents = useUserConsents(user.id);
  const [revoking, setRevoking] = useState<ConnectedApp | null>(null);
  return (
    <Section title={t('users.authorizedApps')}>
      {consents.status === 'loading' ? <Skeleton height={48} data-testid="authorized-apps-loading" /> : consents.status === 'error' ? (
        <Alert color="red" role="alert">
          <Group justify="space-between"><span><ErrorMessage error={consents.error} /></span><Button size="xs" variant="default" onClick={consents.reload}>{t('common.retry')}</Button></Group>
        </Alert>
      ) : consents.value.length === 0 ? <Text size="sm" c="dimmed">{t('users.authorizedAppsEmpty')}</Text> : (
        <Stack gap="sm">
          {consents.value.map((a) => (
            <Group key={a.clientId} justify="space-between" wrap="nowrap" align="flex-start" data-testid="authorized-app">
              {/* The app's part takes what the Revoke button leaves and wraps its scopes (390 px clipped the button). */}
              <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0, flex: 1 }}>
                <Avatar src={a.logoUrl} alt="" radius="sm" size="md" color="indigo.8" variant="filled">{initials(a.displayName, null)}</Avatar>
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>{a.displayName}</Text>
                  <Group gap={4} data-testid="authorized-app-scopes">
                    {a.scopes.map((s) => <Badge key={s} size="sm" variant="default" tt="none" ff="monospace">{s}</Badge>)}
                  </Group>
                  <Text size="xs" c="dimmed">{t('users.authorizedAppsGranted', { date: formatDateTime(a.grantedAt) })}</Text>
                </Stack>
              </Group>
              <Button size="xs" variant="subtle" color="red" style={{ flexShrink: 0 }} onClick={() => setRevoking(a)} aria-label={t('users.authorizedAppsRevokeLabel', { app: a.displayName })}>
                {t('users.authorizedAppsRevoke')}
              </Button>
            </Group>
          ))}
        </Stack>
      )}
      {revoking && <RevokeModal user={user} consent={revoking} onClose={() => setRevoking(null)} onRevoked={consents.reload} />}
    </Section>
  );
}

function RevokeModal({ user, consent, onClose, onRevoked }: { user: ServerUser; consent: ConnectedApp; onClose(): void; onRevoked(): void }) {
  const { app } = useProjectContext();
  return (
    <ConfirmModal title={t('users.authorizedAppsRevokeTitle')} text={t('users.authorizedAppsRevokeText', { app: consent.displayName })}
      confirmLabel={t('users.authorizedAppsRevoke')} onClose={onClose}
      onConfirm={async () => {
        await app.revokeOAuthProviderConsent(user.id, consent.clientId);
        notifications.show({ color: 'green', message: t('users.authorizedAppsRevoked') });
        onRevoked();
        onClose();
      }} />
  );
}
