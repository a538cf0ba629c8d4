// Webhooks: the project's endpoints (add or edit URL, description and events in webhook-endpoint-form.tsx, the
// signing secret shown once, enable or disable, delete behind a confirmation) and, for the endpoint chosen, its recent deliveries.
import { useState } from 'react';
import { Alert, Badge, Button, Card, Checkbox, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import type { WebhookEndpoint, WebhookEndpointFirstView } from '@gatehouse/shared/client';
import { CopyField } from '../components/copy-field';
import { ConfirmModal } from '../components/confirm-modal';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';
import { useWebhookEndpoints } from '../hooks/use-admin-lists';
import { useProjectContext } from '../hooks/use-project-context';
import { formatDate } from '../lib/format';
import { t } from '../messages';
import { WebhookDeliveries } from './webhook-deliveries';
import { EndpointFormModal } from './webhook-endpoint-form';
import { notifyError } from '../components/notify';

export function WebhooksScreen() {
  const endpoints = useWebhookEndpoints();
  const [adding, setAdding] = useState(false);
  const [firstView, setFirstView] = useState<WebhookEndpointFirstView | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [editing, setEditing] = useState<WebhookEndpoint | null>(null);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const chosen = endpoints.find((e) => e.id === chosenId) ?? endpoints[0] ?? null;
  return (
    <Stack>
      <ScreenHeader title={t('webhooks.title')}>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>{t('webhooks.add')}</Button>
      </ScreenHeader>
      <Text size="sm" c="dimmed">{t('webhooks.intro')}</Text>
      {endpoints.length === 0 ? <EmptyState text={t('webhooks.empty')} /> : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('webhooks.endpoints')}>
          {endpoints.map((e) => (
            <EndpointCard key={e.id} endpoint={e} chosen={e.id === chosen?.id} onChoose={() => setChosenId(e.id)} onEdit={() => setEditing(e)} onDelete={() => setDeleting(e)} />
          ))}
        </Stack>
      )}
      {chosen && <WebhookDeliveries key={chosen.id} endpoint={chosen} />}
      {adding && <EndpointFormModal editing={null} onClose={() => setAdding(false)} onAdded={(v) => { setAdding(false); setChosenId(v.id); setFirstView(v); }} />}
      {editing && <EndpointFormModal editing={editing} onClose={() => setEditing(null)} />}
      {firstView && <SecretModal endpoint={firstView} onClose={() => setFirstView(null)} />}
      {deleting && <DeleteModal endpoint={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}

function EndpointCard({ endpoint: e, chosen, onChoose, onEdit, onDelete }: { endpoint: WebhookEndpoint; chosen: boolean; onChoose(): void; onEdit(): void; onDelete(): void }) {
  const { app } = useProjectContext();
  const [saving, setSaving] = useState(false);
  const toggle = async (enabled: boolean) => {
    setSaving(true);
    try {
      await app.updateWebhookEndpoint(e.id, { enabled });
      notifications.show({ color: 'green', message: t(enabled ? 'webhooks.enabledToast' : 'webhooks.disabledToast') });
    } catch (err) {
      notifyError(err);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card component="li" withBorder padding="md" data-testid="webhook-endpoint" data-url={e.url}
      style={chosen ? { borderColor: 'var(--mantine-primary-color-filled)' } : undefined}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 260px' }}>
          <Text ff="monospace" size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>{e.url}</Text>
          {e.description && <Text size="sm">{e.description}</Text>}
          <Text size="xs" c="dimmed">{t('webhooks.created', { date: formatDate(e.createdAt) })}</Text>
          {/* Every event, or the chosen ones: a list that may be long, so it wraps rather than one badge. */}
          <Group gap={4} data-testid="endpoint-events">
            {e.eventTypes ? e.eventTypes.map((type) => <Badge key={type} size="sm" variant="light" color="gray" tt="none">{type}</Badge>)
              : <Badge size="sm" variant="light" color="gray">{t('webhooks.allEvents')}</Badge>}
          </Group>
        </Stack>
        <Group gap="sm" wrap="wrap">
          <Switch label={t('webhooks.enabled')} aria-label={`${t('webhooks.enabled')}: ${e.url}`} checked={e.enabled} disabled={saving}
            onChange={(ev) => void toggle(ev.currentTarget.checked)} />
          <Button size="xs" variant={chosen ? 'filled' : 'default'} onClick={onChoose} aria-pressed={chosen}
            aria-label={`${t('webhooks.showDeliveries')}: ${e.url}`}>{t('webhooks.showDeliveries')}</Button>
          <Button size="xs" variant="default" leftSection={<IconPencil size={14} aria-hidden />} onClick={onEdit} aria-label={`${t('webhooks.edit')}: ${e.url}`}>{t('webhooks.edit')}</Button>
          <Button size="xs" variant="default" leftSection={<IconTrash size={14} aria-hidden />} onClick={onDelete} aria-label={`${t('common.delete')}: ${e.url}`}>{t('common.delete')}</Button>
        </Group>
      </Group>
    </Card>
  );
}

function SecretModal({ endpoint, onClose }: { endpoint: WebhookEndpointFirstView; onClose(): void }) {
  const [acknowledged, setAcknowledged] = useState(false);
  const close = () => acknowledged && onClose();
  return (
    <Modal opened onClose={close} title={t('webhooks.secretTitle')} closeOnClickOutside={false} closeOnEscape={false} withCloseButton={false} size="lg">
      <Stack>
        <Alert color="yellow">{t('webhooks.secretText')}</Alert>
        <CopyField label={t('webhooks.secret')} value={endpoint.secret} testId="webhook-secret" />
        <Text size="sm" c="dimmed">{t('webhooks.secretHowTo')}</Text>
        <Checkbox label={t('webhooks.secretAcknowledge')} checked={acknowledged} onChange={(e) => setAcknowledged(e.currentTarget.checked)} />
        <Group justify="flex-end"><Button disabled={!acknowledged} onClick={close}>{t('common.close')}</Button></Group>
      </Stack>
    </Modal>
  );
}

function DeleteModal({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose(): void }) {
  const { app } = useProjectContext();
  return (
    <ConfirmModal
      title={t('webhooks.deleteTitle')}
      text={t('webhooks.deleteText')}
      confirmLabel={t('common.delete')}
      onClose={onClose}
      onConfirm={async () => {
        await app.deleteWebhookEndpoint(endpoint.id);
        notifications.show({ color: 'green', message: t('webhooks.deletedToast') });
        onClose();
      }}
    >
      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>{endpoint.url}</Text>
    </ConfirmModal>
  );
}
