// One user: profile (the server-writable fields), metadata, contact channels, sign-in state, teams, sessions,
// authorized OAuth apps, impersonation and deletion. The sections are in user-sections.tsx and user-access.tsx.
import { useState } from 'react';
import { Alert, Anchor, Avatar, Button, Checkbox, Group, Modal, PasswordInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconArrowLeft, IconExternalLink, IconTrash, IconUserShare } from '@tabler/icons-react';
import type { ServerUser } from '@gatehouse/shared/client';
import { EmptyState } from '../components/empty-state';
import { SectionCard as Section } from '../components/section-card';
import { useAdminProject, useProjectContext } from '../hooks/use-project-context';
import { useServerUser } from '../hooks/use-user-reads';
import { navigate, useRoute } from '../hooks/use-route';
import { showFieldError } from '../components/field-error';
import { routeHash } from '../lib/routes';
import {
  noWayInReason, IMPERSONATION_KEY_LIFETIME_MS, impersonationUrl, initials, profileUpdate, profileValues, validateProfile, type ProfileValues,
} from '../lib/users';
import { t } from '../messages';
import { ContactChannelsSection, MetadataSection } from './user-sections';
import { SignInStateSection, SessionsSection, TeamsSection } from './user-access';
import { ProjectPermissionsSection } from './user-permissions';
import { UserActivitySection } from './user-audit-log';
import { AuthorizedAppsSection } from './user-authorized-apps';
import { ErrorMessage } from '../components/error-message';

export function UserPage({ userId }: { userId: string }) {
  const route = useRoute();
  const user = useServerUser(userId);
  const listRoute = route.name === 'project' ? { ...route, itemId: undefined } : null;
  const back = listRoute && (
    <Anchor href={routeHash(listRoute)} size="sm" onClick={(e) => { e.preventDefault(); navigate(listRoute); }}>
      <Group gap={4} component="span"><IconArrowLeft size={14} aria-hidden />{t('users.backToList')}</Group>
    </Anchor>
  );
  if (!user) return <Stack>{back}<EmptyState text={t('users.notFound')} /></Stack>;
  return (
    <Stack gap="lg">
      {back}
      <Group justify="space-between" align="center" wrap="wrap">
        <Group gap="md" wrap="nowrap" style={{ minWidth: 0 }}>
          <Avatar src={user.profileImageUrl} alt="" radius="xl" size="lg" color="indigo.8" variant="filled">{initials(user.displayName, user.primaryEmail)}</Avatar>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>{user.displayName ?? user.primaryEmail ?? t('users.noName')}</Title>
            <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>{user.id}</Text>
          </Stack>
        </Group>
        <Group gap="xs">
          <ImpersonateButton user={user} />
          <DeleteUserButton user={user} onDeleted={() => listRoute && navigate(listRoute)} />
        </Group>
      </Group>
      <NoWayInNotice user={user} />
      <ProfileSection user={user} />
      <MetadataSection user={user} />
      <ContactChannelsSection user={user} />
      <SignInStateSection user={user} />
      <TeamsSection user={user} />
      <ProjectPermissionsSection user={user} />
      <SessionsSection user={user} />
      <AuthorizedAppsSection user={user} />
      <UserActivitySection user={user} />
    </Stack>
  );
}

/** Says so when the user has no way to sign in (issue 26: users made without one could not). */
function NoWayInNotice({ user }: { user: ServerUser }) {
  const project = useAdminProject();
  const reason = noWayInReason(user, project.config);
  if (!reason) return null;
  return <Alert color="orange" icon={<IconAlertTriangle aria-hidden />} data-testid="no-way-in">{t(`users.noWayIn.${reason}`)}</Alert>;
}

function ProfileSection({ user }: { user: ServerUser }) {
  const [saving, setSaving] = useState(false);
  const form = useForm<ProfileValues>({
    initialValues: profileValues(user),
    validate: (v) => validateProfile(v, { invalidEmail: t('common.invalidEmail') }),
  });
  return (
    <Section title={t('users.profile')}>
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        const update = profileUpdate(user, v);
        if (Object.keys(update).length === 0) return;
        setSaving(true);
        try {
          await user.update(update);
          form.setFieldValue('newPassword', '');
          notifications.show({ color: 'green', message: t('users.profileSaved') });
        } catch (e) {
          showFieldError(form, e, 'displayName', [
            { field: 'primaryEmail', codes: ['USER_EMAIL_ALREADY_EXISTS'], schemaPath: /primary_email/ },
            { field: 'newPassword', schemaPath: /password/ },
            { field: 'displayName', schemaPath: /display_name/ },
          ]);
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <Group grow align="flex-start" wrap="wrap" preventGrowOverflow={false}>
            <TextInput label={t('users.displayName')} miw={220} {...form.getInputProps('displayName')} />
            <TextInput label={t('users.primaryEmail')} type="email" miw={220} {...form.getInputProps('primaryEmail')} />
          </Group>
          <Checkbox label={t('users.emailVerified')} {...form.getInputProps('primaryEmailVerified', { type: 'checkbox' })} />
          <Switch label={t('users.emailSignIn')} {...form.getInputProps('primaryEmailAuthEnabled', { type: 'checkbox' })} />
          <PasswordInput
            label={user.hasPassword ? t('users.newPassword') : t('users.setPassword')}
            description={user.hasPassword ? t('users.hasPassword') : t('users.noPassword')}
            autoComplete="new-password"
            maw={420}
            {...form.getInputProps('newPassword')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={saving} disabled={saving}>{t('users.saveProfile')}</Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

/**
 * An impersonation session (`POST /auth/sessions`, is_impersonation) and a publishable key that lasts an hour, so
 * that the project's demo can open signed in as the user; the link is offered for the owner to click (a tab
 * opened after the requests would be blocked as a pop-up).
 */
function ImpersonateButton({ user }: { user: ServerUser }) {
  const { app, connection, projectId } = useProjectContext();
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const close = () => { setOpened(false); setUrl(null); setError(null); };
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const who = user.primaryEmail ?? user.id;
      const key = await app.createInternalApiKey({
        description: t('users.impersonationKey', { user: who }),
        expiresAt: new Date(Date.now() + IMPERSONATION_KEY_LIFETIME_MS),
        hasPublishableClientKey: true, hasSecretServerKey: false, hasSuperSecretAdminKey: false,
      });
      const session = await user.createSession({ isImpersonation: true, expiresInMillis: IMPERSONATION_KEY_LIFETIME_MS });
      setUrl(impersonationUrl(connection.serviceUrl, {
        projectId, publishableClientKey: key.publishableClientKey!, refreshToken: session.getTokens().refreshToken,
      }));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="default" leftSection={<IconUserShare size={16} aria-hidden />} onClick={() => setOpened(true)}>{t('users.impersonate')}</Button>
      <Modal opened={opened} onClose={close} title={t('users.impersonateTitle')}>
        <Stack>
          <Text size="sm">{t('users.impersonateText', { user: user.primaryEmail ?? user.displayName ?? user.id })}</Text>
          {error !== null && <Alert color="red" role="alert"><ErrorMessage error={error} /></Alert>}
          {url ? (
            <Button component="a" href={url} target="_blank" rel="noreferrer" color="orange" leftSection={<IconExternalLink size={16} aria-hidden />} onClick={close}>
              {t('users.impersonateOpen')}
            </Button>
          ) : (
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>{t('common.cancel')}</Button>
              <Button color="orange" loading={busy} onClick={start}>{t('users.impersonateStart')}</Button>
            </Group>
          )}
        </Stack>
      </Modal>
    </>
  );
}

function DeleteUserButton({ user, onDeleted }: { user: ServerUser; onDeleted(): void }) {
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const who = user.primaryEmail ?? user.displayName ?? user.id;
  return (
    <>
      <Button variant="light" color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setOpened(true)}>{t('users.delete')}</Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('users.deleteTitle')}>
        <Stack>
          <Text size="sm">{t('users.deleteText', { user: who })}</Text>
          {error !== null && <Alert color="red" role="alert"><ErrorMessage error={error} /></Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>{t('common.cancel')}</Button>
            <Button color="red" loading={busy} onClick={async () => {
              setBusy(true);
              try {
                await user.delete();
                notifications.show({ color: 'green', message: t('users.deletedToast', { user: who }) });
                onDeleted();
              } catch (e) {
                setError(e);
                setBusy(false);
              }
            }}>{t('users.deleteConfirm')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
