// OAuth apps: the clients of the project's own OpenID provider (issue 27). The list (name, logo, type, client id,
// redirect URIs, grants, scopes), register or edit one (oauth-app-form.tsx), a confidential client's secret shown
// once, delete behind a confirmation; the project's own scopes and custom claims (oauth-provider-settings.tsx), dynamic registration and protected resources (oauth-provider-access.tsx). Loading and errors: the screen's boundary (skeleton, error state).
import { useState } from 'react';
import { Alert, Avatar, Badge, Button, Card, Checkbox, Group, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import type { OAuthProviderClient, OAuthProviderClientFirstView } from '@gatehouse/shared/client';
import { ConfirmModal } from '../components/confirm-modal';
import { CopyField } from '../components/copy-field';
import { EmptyState } from '../components/empty-state';
import { ListSkeleton, ScreenBoundary } from '../components/screen-boundary';
import { ScreenHeader } from '../components/screen-header';
import { useOAuthProviderClients, useRefetchOAuthProviderSettings } from '../hooks/use-admin-lists';
import { useOAuthClientActivity } from '../hooks/use-admin-loads';
import { useProjectContext } from '../hooks/use-project-context';
import { ErrorMessage } from '../components/error-message';
import { formatDate, formatDateTime } from '../lib/format';
import { GRANT_LABEL_KEYS, activityParts, issuerUrl, lifetimePart } from '../lib/oauth-apps';
import { t } from '../messages';
import { OAuthAppFormModal } from './oauth-app-form';
import { ProviderAccessSection } from './oauth-provider-access';
import { ProviderSettingsSection } from './oauth-provider-settings';

export function OAuthAppsScreen() {
  const clients = useOAuthProviderClients();
  const { connection, projectId } = useProjectContext();
  const [adding, setAdding] = useState(false);
  const [firstView, setFirstView] = useState<OAuthProviderClientFirstView | null>(null);
  const [editing, setEditing] = useState<OAuthProviderClient | null>(null);
  const [deleting, setDeleting] = useState<OAuthProviderClient | null>(null);
  // The provider's settings load (and fail) apart from the apps: their sections have a skeleton and an error of their
  // own. "Try again" fetches them again, then mounts the sections anew (the failed read would otherwise be shown again).
  const refetchSettings = useRefetchOAuthProviderSettings();
  const [settingsAttempt, setSettingsAttempt] = useState(0);
  const retrySettings = () => void refetchSettings().finally(() => setSettingsAttempt((n) => n + 1));
  return (
    <Stack>
      <ScreenHeader title={t('oauthApps.title')}>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>{t('oauthApps.add')}</Button>
      </ScreenHeader>
      <Text size="sm" c="dimmed">{t('oauthApps.intro')}</Text>
      <CopyField label={t('oauthApps.issuer')} value={issuerUrl(connection.serviceUrl, projectId)} testId="oauth-issuer" />
      {clients.length === 0 ? <EmptyState text={t('oauthApps.empty')} /> : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('oauthApps.list')}>
          {clients.map((c) => <ClientCard key={c.clientId} client={c} onEdit={() => setEditing(c)} onDelete={() => setDeleting(c)} />)}
        </Stack>
      )}
      <ScreenBoundary key={settingsAttempt} fallback={<ListSkeleton rows={2} />} onRetry={retrySettings}>
        <ProviderSettingsSection />
        <ProviderAccessSection />
      </ScreenBoundary>
      {adding && <OAuthAppFormModal editing={null} onClose={() => setAdding(false)} onAdded={(v) => { setAdding(false); setFirstView(v); }} />}
      {editing && <OAuthAppFormModal editing={editing} onClose={() => setEditing(null)} />}
      {firstView && <FirstViewModal client={firstView} onClose={() => setFirstView(null)} />}
      {deleting && <DeleteModal client={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}

function ClientCard({ client: c, onEdit, onDelete }: { client: OAuthProviderClient; onEdit(): void; onDelete(): void }) {
  return (
    <Card component="li" withBorder padding="md" data-testid="oauth-app" data-client-id={c.clientId}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Group align="flex-start" wrap="nowrap" gap="sm" style={{ minWidth: 0, flex: '1 1 300px' }}>
          {/* The name is beside it: the logo says nothing more to a screen reader. */}
          <Avatar src={c.logoUrl} alt="" radius="sm" size="md" color="gray">{c.displayName.slice(0, 1).toUpperCase()}</Avatar>
          <Stack gap={6} style={{ minWidth: 0, flex: 1 }}>
            <Group gap="xs" wrap="wrap">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>{c.displayName}</Text>
              <Badge size="sm" variant="light" color={c.clientType === 'confidential' ? 'blue' : 'gray'} data-testid="oauth-app-type">
                {t(`oauthApps.type.${c.clientType}`)}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {t('oauthApps.clientId')}: <Text span ff="monospace" size="sm" c="var(--mantine-color-text)" data-testid="oauth-app-client-id" style={{ overflowWrap: 'anywhere' }}>{c.clientId}</Text>
            </Text>
            <Stack gap={2} data-testid="oauth-app-redirect-uris">
              {c.redirectUris.length === 0 ? <Text size="sm" c="dimmed">{t('oauthApps.noRedirectUris')}</Text>
                : c.redirectUris.map((uri) => <Text key={uri} size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>{uri}</Text>)}
            </Stack>
            <Group gap={4} data-testid="oauth-app-grants" aria-label={t('oauthApps.grantTypes')}>
              {c.grantTypes.map((g) => <Badge key={g} size="sm" variant="outline" color="gray" tt="none">{t(GRANT_LABEL_KEYS[g])}</Badge>)}
            </Group>
            <Group gap={4} data-testid="oauth-app-scopes" aria-label={t('oauthApps.scopes')}>
              {c.scopes.map((s) => <Badge key={s} size="sm" variant="light" color="gray" tt="none" ff="monospace">{s}</Badge>)}
            </Group>
            <Text size="sm" data-testid="oauth-app-lifetimes">
              {t('oauthApps.lifetimesLine', {
                access: lifetimeText(c.accessTokenLifetimeSeconds), id: lifetimeText(c.idTokenLifetimeSeconds), refresh: lifetimeText(c.refreshTokenLifetimeSeconds),
              })}
            </Text>
            <ClientActivity client={c} />
            <Text size="xs" c="dimmed">{t('oauthApps.created', { date: formatDate(c.createdAt) })}</Text>
          </Stack>
        </Group>
        <Group gap="sm" wrap="wrap">
          <Button size="xs" variant="default" leftSection={<IconPencil size={14} aria-hidden />} onClick={onEdit} aria-label={`${t('oauthApps.edit')}: ${c.displayName}`}>{t('oauthApps.edit')}</Button>
          <Button size="xs" variant="default" leftSection={<IconTrash size={14} aria-hidden />} onClick={onDelete} aria-label={`${t('common.delete')}: ${c.displayName}`}>{t('common.delete')}</Button>
        </Group>
      </Group>
    </Card>
  );
}

function lifetimeText(seconds: number): string {
  const part = lifetimePart(seconds);
  return t(part.key, part.values);
}

/** Consents granted, live tokens, the last token issued: read on each visit (and after an edit), as they change with use. */
function ClientActivity({ client }: { client: OAuthProviderClient }) {
  const activity = useOAuthClientActivity(client.clientId, client.updatedAt.getTime());
  if (activity.status === 'loading') return <Skeleton height={18} width={260} aria-label={t('common.loading')} />;
  if (activity.status === 'error') return <Text size="sm" c="red"><ErrorMessage error={activity.error} /></Text>;
  const text = activityParts(activity.value).map((p) => t(p.key, p.at ? { date: formatDateTime(p.at) } : p.values)).join(' · ');
  return <Text size="sm" data-testid="oauth-app-activity">{text}</Text>;
}

/** After registering: the client id and, for a confidential client, its secret, which is never shown again. */
function FirstViewModal({ client, onClose }: { client: OAuthProviderClientFirstView; onClose(): void }) {
  const [acknowledged, setAcknowledged] = useState(false);
  const secret = client.clientSecret;
  const canClose = !secret || acknowledged;
  const close = () => canClose && onClose();
  return (
    <Modal opened onClose={close} title={t(secret ? 'oauthApps.secretTitle' : 'oauthApps.publicTitle')} closeOnClickOutside={false}
      closeOnEscape={!secret} withCloseButton={false} size="lg">
      <Stack>
        <Alert color={secret ? 'yellow' : 'blue'}>{t(secret ? 'oauthApps.secretText' : 'oauthApps.publicText')}</Alert>
        <CopyField label={t('oauthApps.clientId')} value={client.clientId} testId="oauth-app-new-client-id" />
        {secret && <CopyField label={t('oauthApps.clientSecret')} value={secret} testId="oauth-app-secret" />}
        {secret && <Checkbox label={t('oauthApps.secretAcknowledge')} checked={acknowledged} onChange={(e) => setAcknowledged(e.currentTarget.checked)} />}
        <Group justify="flex-end"><Button disabled={!canClose} onClick={close}>{t('common.close')}</Button></Group>
      </Stack>
    </Modal>
  );
}

function DeleteModal({ client, onClose }: { client: OAuthProviderClient; onClose(): void }) {
  const { app } = useProjectContext();
  return (
    <ConfirmModal title={t('oauthApps.deleteTitle')} text={t('oauthApps.deleteText')} confirmLabel={t('common.delete')} onClose={onClose}
      onConfirm={async () => {
        await app.deleteOAuthProviderClient(client.clientId);
        notifications.show({ color: 'green', message: t('oauthApps.deletedToast') });
        onClose();
      }}>
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>{client.displayName}</Text>
      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>{client.clientId}</Text>
    </ConfirmModal>
  );
}
