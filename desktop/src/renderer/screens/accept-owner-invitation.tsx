// The page an owner invitation's mail opens (#/c/<connection>/owner-invitation?code=…), once the invitee is signed in
// (console-app.tsx shows the sign-in first and comes back here): the project's name, the invited address and the
// signed-in account, and "Accept", which makes them an owner and opens the project. Refusals (a used, revoked or
// expired link) say why, with the catalogue's text.
import { useState, type ReactNode } from 'react';
import { Alert, Button, Card, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { CurrentInternalUser, CurrentUser } from '@gatehouse/shared/client';
import { ErrorMessage } from '../components/error-message';
import { ListSkeleton } from '../components/screen-boundary';
import { useOwnerInvitation } from '../hooks/use-owner-invitation';
import { navigate } from '../hooks/use-route';
import { routeHash } from '../lib/routes';
import { t } from '../messages';

export function AcceptOwnerInvitationScreen({ user, connectionId, code }: { user: CurrentUser; connectionId: string; code: string | null }) {
  return (
    <Stack maw={560} mx="auto" pt="md" data-testid="owner-invitation-page">
      {code ? <Invitation user={user} connectionId={connectionId} code={code} /> : <Refused connectionId={connectionId}>{t('ownerInvitation.noCode')}</Refused>}
    </Stack>
  );
}

function Invitation({ user, connectionId, code }: { user: CurrentUser; connectionId: string; code: string }) {
  const invitation = useOwnerInvitation(user, code);
  const [accepting, setAccepting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (invitation.status === 'loading') return <ListSkeleton rows={2} />;
  if (invitation.status === 'error') return <Refused connectionId={connectionId}><ErrorMessage error={invitation.error} /></Refused>;
  const { projectDisplayName: project, recipientEmail } = invitation.value;
  const accept = async () => {
    setAccepting(true);
    setError(null);
    try {
      const owned = await (user as CurrentInternalUser).acceptOwnerInvitation(code);
      notifications.show({ color: 'green', message: t('ownerInvitation.accepted', { project }) });
      navigate({ name: 'project', connectionId, projectId: owned.id, screen: 'overview' });
    } catch (e) {
      setError(e);
      setAccepting(false);
    }
  };
  return (
    <Card withBorder padding="lg">
      <Stack align="flex-start">
        <Title order={1} size="h3" style={{ overflowWrap: 'anywhere' }}>{t('ownerInvitation.title', { project })}</Title>
        <Text>{t('ownerInvitation.text')}</Text>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('ownerInvitation.sentTo', { email: recipientEmail, account: user.primaryEmail ?? user.displayName ?? user.id })}
        </Text>
        {error !== null && (
          <Alert color="red" role="alert" title={t('ownerInvitation.failedTitle')} w="100%">
            <span data-testid="owner-invitation-error"><ErrorMessage error={error} /></span>
          </Alert>
        )}
        <Button onClick={accept} loading={accepting} disabled={accepting}>{t('ownerInvitation.accept')}</Button>
      </Stack>
    </Card>
  );
}

function Refused({ connectionId, children }: { connectionId: string; children: ReactNode }) {
  return (
    <Alert color="red" role="alert" title={<Title order={1} size="h4">{t('ownerInvitation.failedTitle')}</Title>}>
      <Stack gap="xs" align="flex-start">
        <span data-testid="owner-invitation-error">{children}</span>
        {/* A button, not a link: a link's blue on the alert's red tint is too faint to read (axe: color-contrast). */}
        <Button component="a" href={routeHash({ name: 'projects', connectionId })} variant="default" size="xs">{t('ownerInvitation.toProjects')}</Button>
      </Stack>
    </Alert>
  );
}
