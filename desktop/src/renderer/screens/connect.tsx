// Connect: the saved services and projects, sign in as an owner of a service, or open one project with its
// super secret admin key.
import { useState } from 'react';
import { ActionIcon, Button, Card, Group, PasswordInput, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import type { SavedConnection } from '../../shared/bridge';
import type { Platform } from '../platform';
import { ConsoleShell } from '../components/console-shell';
import { EmptyState } from '../components/empty-state';
import { ListSkeleton } from '../components/screen-boundary';
import { navigate } from '../hooks/use-route';
import { forgetApps, keyAdminApp } from '../lib/apps';
import { projectConnectionProblem } from '../lib/connect-check';
import { showFieldError } from '../components/field-error';
import { connectionLabel, requiredProblem, serviceUrlProblem } from '../lib/connect-rules';
import { StatusBadge } from '../components/status-badge';
import { t } from '../messages';

interface Props {
  platform: Platform;
  connections: { list: SavedConnection[] | null; reload(): Promise<void> };
  /** A saved project connection whose admin key must be typed again. */
  reconnect?: SavedConnection;
}

export function ConnectScreen({ platform, connections, reconnect }: Props) {
  const [tab, setTab] = useState<string | null>(reconnect ? 'key' : 'owner');
  return (
    <ConsoleShell>
      <Stack maw={760} mx="auto" gap="lg">
        <div>
          <Title order={1} size="h2">{t('connect.title')}</Title>
          <Text c="dimmed">{t('connect.intro')}</Text>
        </div>
        <Card withBorder padding="lg">
          <Tabs value={tab} onChange={setTab}>
            <Tabs.List mb="md">
              <Tabs.Tab value="owner">{t('connect.ownerTab')}</Tabs.Tab>
              <Tabs.Tab value="key">{t('connect.keyTab')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="owner"><OwnerForm platform={platform} onSaved={connections.reload} /></Tabs.Panel>
            <Tabs.Panel value="key"><KeyForm platform={platform} reconnect={reconnect} onSaved={connections.reload} /></Tabs.Panel>
          </Tabs>
        </Card>
        <Stack gap="sm">
          <Title order={2} size="h4">{t('connect.saved')}</Title>
          {!connections.list ? <ListSkeleton rows={2} /> : connections.list.length === 0 ? <EmptyState text={t('connect.savedEmpty')} /> : (
            connections.list.map((c) => <SavedConnectionRow key={c.id} platform={platform} connection={c} onRemoved={connections.reload} />)
          )}
        </Stack>
      </Stack>
    </ConsoleShell>
  );
}

function SavedConnectionRow({ platform, connection, onRemoved }: { platform: Platform; connection: SavedConnection; onRemoved(): void }) {
  const builtIn = connection.id === 'this-service';
  return (
    <Card withBorder padding="sm" data-testid="saved-connection">
      <Group justify="space-between" wrap="nowrap">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} truncate>{builtIn ? `${t('connect.thisService')} (${connection.label})` : connection.label}</Text>
            <StatusBadge color={connection.kind === 'owner' ? 'blue' : 'grape'}>{t(connection.kind === 'owner' ? 'connect.kindOwner' : 'connect.kindProject')}</StatusBadge>
          </Group>
          <Text size="sm" c="dimmed" truncate>{connection.serviceUrl}</Text>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" onClick={() => navigate({ name: 'projects', connectionId: connection.id })} aria-label={`${t('common.open')} ${connection.label}`}>{t('common.open')}</Button>
          {!builtIn && (
            <ActionIcon variant="subtle" color="red" size="lg" aria-label={`${t('common.remove')} ${connection.label}`} onClick={async () => {
              await platform.removeConnection(connection.id);
              forgetApps(connection.id);
              notifications.show({ color: 'green', message: t('connect.removed') });
              onRemoved();
            }}>
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          )}
        </Group>
      </Group>
    </Card>
  );
}

function OwnerForm({ platform, onSaved }: { platform: Platform; onSaved(): Promise<void> }) {
  const hasKey = platform.kind === 'web' && !!platform.config.publishableClientKey;
  const form = useForm({
    initialValues: { serviceUrl: platform.fixedServiceUrl ?? platform.defaultServiceUrl, publishableClientKey: '' },
    validate: {
      serviceUrl: (v) => (serviceUrlProblem(v) ? t(serviceUrlProblem(v)!) : null),
      publishableClientKey: (v) => (!hasKey && requiredProblem(v) ? t('common.required') : null),
    },
  });
  if (hasKey) {
    return (
      <Stack>
        <Text>{platform.fixedServiceUrl}</Text>
        <Group><Button onClick={() => navigate({ name: 'sign-in', connectionId: 'this-service' })}>{t('connect.continueOwner')}</Button></Group>
      </Stack>
    );
  }
  return (
    <form onSubmit={form.onSubmit(async (v) => {
      const url = new URL(v.serviceUrl.trim()).origin;
      const saved = await platform.saveConnection({ kind: 'owner', serviceUrl: url, label: connectionLabel(url), publishableClientKey: v.publishableClientKey.trim() });
      await onSaved();
      navigate({ name: 'sign-in', connectionId: saved.id });
    })}>
      <Stack>
        <TextInput label={t('connect.serviceUrl')} readOnly={!!platform.fixedServiceUrl} {...form.getInputProps('serviceUrl')} />
        <TextInput label={t('connect.internalKey')} description={t('connect.internalKeyHint')} {...form.getInputProps('publishableClientKey')} />
        <Group><Button type="submit">{t('connect.continueOwner')}</Button></Group>
      </Stack>
    </form>
  );
}

function KeyForm({ platform, reconnect, onSaved }: { platform: Platform; reconnect?: SavedConnection; onSaved(): Promise<void> }) {
  const [saving, setSaving] = useState(false);
  const form = useForm({
    initialValues: {
      serviceUrl: reconnect?.serviceUrl ?? platform.fixedServiceUrl ?? platform.defaultServiceUrl,
      projectId: reconnect?.projectId ?? '',
      adminKey: '',
    },
    validate: {
      serviceUrl: (v) => (serviceUrlProblem(v) ? t(serviceUrlProblem(v)!) : null),
      projectId: (v) => (requiredProblem(v) ? t('common.required') : null),
      adminKey: (v) => (requiredProblem(v) ? t('common.required') : null),
    },
  });
  return (
    <form onSubmit={form.onSubmit(async (v) => {
      setSaving(true);
      try {
        const url = new URL(v.serviceUrl.trim()).origin;
        const projectId = v.projectId.trim();
        const saved = await platform.saveConnection({ id: reconnect?.id, kind: 'project', serviceUrl: url, projectId, label: connectionLabel(url, projectId) });
        await platform.keepAdminKey(saved.id, v.adminKey.trim());
        forgetApps(saved.id);
        // The key is tried before the connection stays: a wrong one is said in the form, and a new connection that
        // does not open is not kept (the desktop app's requests need it saved, with its key, to be made at all).
        const app = keyAdminApp(platform, saved);
        const problem = app && (await projectConnectionProblem(app, { baseUrl: url, projectId, fetch: platform.fetchFor(saved.id) }));
        if (problem) {
          forgetApps(saved.id);
          if (!reconnect) await platform.removeConnection(saved.id);
          if ('key' in problem) form.setFieldError(problem.field, t(problem.key));
          else showFieldError(form, problem.error, problem.field);
          return;
        }
        await onSaved();
        navigate({ name: 'project', connectionId: saved.id, projectId, screen: 'overview' });
      } finally {
        setSaving(false);
      }
    })}>
      <Stack>
        {reconnect && <Text c="dimmed" size="sm">{t('connect.needsKey')}</Text>}
        <TextInput label={t('connect.serviceUrl')} readOnly={!!platform.fixedServiceUrl} {...form.getInputProps('serviceUrl')} />
        <TextInput label={t('connect.projectId')} {...form.getInputProps('projectId')} />
        <PasswordInput label={t('connect.adminKey')} description={t('connect.adminKeyHint')} {...form.getInputProps('adminKey')} />
        <Group><Button type="submit" loading={saving} disabled={saving}>{t('connect.connectProject')}</Button></Group>
      </Stack>
    </form>
  );
}
