// Webhooks: the project's endpoints (add with URL and description, the signing secret shown once, enable or
// disable, delete behind a confirmation) and, for the endpoint chosen, its recent deliveries.
import { useState } from 'react';
import { Alert, Badge, Button, Card, Checkbox, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { WebhookEndpoint, WebhookEndpointFirstView } from '@gatehouse/shared/client';
import { CopyField } from '../components/copy-field';
import { ConfirmModal } from '../components/confirm-modal';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';
import { useWebhookEndpoints } from '../hooks/use-admin-lists';
import { useProjectContext } from '../hooks/use-project-context';
import { formatDate } from '../lib/format';
import { showFieldError } from '../components/field-error';
import { endpointCreateOptions, validateEndpointForm, type EndpointFormValues } from '../lib/webhooks';
import { t } from '../messages';
import { WebhookDeliveries } from './webhook-deliveries';
import { notifyError } from '../components/notify';

export function WebhooksScreen() {
  const { app } = useProjectContext();
  const endpoints = useWebhookEndpoints();
  const [adding, setAdding] = useState(false);
  const [firstView, setFirstView] = useState<WebhookEndpointFirstView | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
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
            <EndpointCard key={e.id} endpoint={e} chosen={e.id === chosen?.id} onChoose={() => setChosenId(e.id)} onDelete={() => setDeleting(e)} />
          ))}
        </Stack>
      )}
      {chosen && <WebhookDeliveries key={chosen.id} endpoint={chosen} />}
      <AddEndpointModal opened={adding} onClose={() => setAdding(false)} onAdded={(v) => { setAdding(false); setChosenId(v.id); setFirstView(v); }} />
      {firstView && <SecretModal endpoint={firstView} onClose={() => setFirstView(null)} />}
      {deleting && <DeleteModal endpoint={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}

function EndpointCard({ endpoint: e, chosen, onChoose, onDelete }: { endpoint: WebhookEndpoint; chosen: boolean; onChoose(): void; onDelete(): void }) {
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
          <Group gap="xs">
            <Text size="xs" c="dimmed">{t('webhooks.created', { date: formatDate(e.createdAt) })}</Text>
            <Badge size="sm" variant="light" color="gray">{e.eventTypes ? e.eventTypes.join(', ') : t('webhooks.allEvents')}</Badge>
          </Group>
        </Stack>
        <Group gap="sm" wrap="wrap">
          <Switch label={t('webhooks.enabled')} aria-label={`${t('webhooks.enabled')}: ${e.url}`} checked={e.enabled} disabled={saving}
            onChange={(ev) => void toggle(ev.currentTarget.checked)} />
          <Button size="xs" variant={chosen ? 'filled' : 'default'} onClick={onChoose} aria-pressed={chosen}
            aria-label={`${t('webhooks.showDeliveries')}: ${e.url}`}>{t('webhooks.showDeliveries')}</Button>
          <Button size="xs" variant="default" leftSection={<IconTrash size={14} aria-hidden />} onClick={onDelete} aria-label={`${t('common.delete')}: ${e.url}`}>{t('common.delete')}</Button>
        </Group>
      </Group>
    </Card>
  );
}

function AddEndpointModal({ opened, onClose, onAdded }: { opened: boolean; onClose(): void; onAdded(v: WebhookEndpointFirstView): void }) {
  const { app } = useProjectContext();
  const [saving, setSaving] = useState(false);
  const form = useForm<EndpointFormValues>({
    initialValues: { url: '', description: '' },
    validate: (v) => validateEndpointForm(v, { required: t('common.required'), url: t('webhooks.urlInvalid'), description: t('webhooks.descriptionTooLong') }),
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('webhooks.addTitle')}>
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          const created = await app.createWebhookEndpoint(endpointCreateOptions(v));
          notifications.show({ color: 'green', message: t('webhooks.addedToast') });
          form.reset();
          onAdded(created);
        } catch (e) {
          showFieldError(form, e, 'url', [{ field: 'url', schemaPath: /url/ }, { field: 'description', schemaPath: /description/ }]);
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <TextInput label={t('webhooks.url')} placeholder="https://example.com/webhooks" data-autofocus required {...form.getInputProps('url')} />
          <TextInput label={t('webhooks.description')} {...form.getInputProps('description')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('webhooks.add')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
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
