// API keys: create a set (description, expiry, which of the three keys), its full values shown once with copy
// buttons and an acknowledgement before the dialog closes; the list (last four, created, expires, state); revoke
// behind a confirmation.
import { useState } from 'react';
import { Alert, Button, Card, Checkbox, Group, Modal, Select, Stack, Table, Text, TextInput, useMatches } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import type { InternalApiKey, InternalApiKeyFirstView } from '@gatehouse/shared/client';
import { CopyField } from '../components/copy-field';
import { ConfirmModal } from '../components/confirm-modal';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';
import { useInternalApiKeys } from '../hooks/use-admin-lists';
import { useProjectContext } from '../hooks/use-project-context';
import { EXPIRY_CHOICES, keyCreateOptions, keyLastFours, keyState, validateKeyForm, type KeyFormValues } from '../lib/api-keys';
import { formatDate } from '../lib/format';
import { showFieldError } from '../components/field-error';
import { StatusBadge } from '../components/status-badge';
import { t } from '../messages';

const STATE_COLOR = { valid: 'green', expired: 'orange', 'manually-revoked': 'red' } as const;

export function ApiKeysScreen() {
  const { app } = useProjectContext();
  const keys = useInternalApiKeys();
  const [creating, setCreating] = useState(false);
  const [firstView, setFirstView] = useState<InternalApiKeyFirstView | null>(null);
  const [revoking, setRevoking] = useState<InternalApiKey | null>(null);
  const sorted = [...keys].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  // On a phone the keys, dates and state go under the description: six columns scrolled sideways at 390 px.
  const minWidth = useMatches({ base: 0, sm: 720 });
  return (
    <Stack>
      <ScreenHeader title={t('keys.title')}>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>{t('keys.create')}</Button>
      </ScreenHeader>
      {sorted.length === 0 ? <EmptyState text={t('keys.empty')} /> : (
        <Card withBorder padding={0}>
          <Table.ScrollContainer minWidth={minWidth}>
            <Table verticalSpacing="sm" horizontalSpacing="md" aria-label={t('keys.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('keys.description')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('keys.keys')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('keys.created')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('keys.expires')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('keys.state')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sorted.map((k) => {
                  const state = keyState(k);
                  const lastFours = (
                    <Stack gap={0}>
                      {keyLastFours(k).map((l) => <Text key={l.kind} size="xs" ff="monospace" style={{ whiteSpace: 'nowrap' }}>{t(`keys.${l.kind}`)} …{l.lastFour}</Text>)}
                    </Stack>
                  );
                  return (
                    <Table.Tr key={k.id} data-testid="api-key-row">
                      <Table.Td>
                        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>{k.description}</Text>
                        <Stack gap={4} mt={4} hiddenFrom="sm" align="flex-start">
                          <StatusBadge color={STATE_COLOR[state]}>{t(`keys.state.${state}`)}</StatusBadge>
                          {lastFours}
                          <Text size="xs" c="dimmed">{t('keys.created')}: {formatDate(k.createdAt)} · {t('keys.expires')}: {formatDate(k.expiresAt)}</Text>
                        </Stack>
                      </Table.Td>
                      <Table.Td visibleFrom="sm">{lastFours}</Table.Td>
                      <Table.Td visibleFrom="sm">{formatDate(k.createdAt)}</Table.Td>
                      <Table.Td visibleFrom="sm">{formatDate(k.expiresAt)}</Table.Td>
                      <Table.Td visibleFrom="sm"><StatusBadge color={STATE_COLOR[state]}>{t(`keys.state.${state}`)}</StatusBadge></Table.Td>
                      <Table.Td ta="right">
                        {state === 'valid' && (
                          <Button size="xs" variant="subtle" color="red" onClick={() => setRevoking(k)} aria-label={`${t('keys.revoke')} ${k.description}`}>{t('keys.revoke')}</Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      <CreateKeysModal opened={creating} onClose={() => setCreating(false)} onCreated={(v) => { setCreating(false); setFirstView(v); }} />
      {firstView && <FirstViewModal keys={firstView} onClose={() => setFirstView(null)} />}
      {revoking && <RevokeModal apiKey={revoking} onClose={() => setRevoking(null)} />}
    </Stack>
  );
}

function CreateKeysModal({ opened, onClose, onCreated }: { opened: boolean; onClose(): void; onCreated(v: InternalApiKeyFirstView): void }) {
  const { app } = useProjectContext();
  const [saving, setSaving] = useState(false);
  const form = useForm<KeyFormValues>({
    initialValues: { description: '', expiresIn: '365', publishable: true, secret: true, admin: false },
    validate: (v) => validateKeyForm(v, { required: t('common.required'), atLeastOne: t('keys.atLeastOne') }),
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('keys.create')}>
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          const created = await app.createInternalApiKey(keyCreateOptions(v));
          notifications.show({ color: 'green', message: t('keys.createdToast') });
          form.reset();
          onCreated(created);
        } catch (e) {
          showFieldError(form, e, 'description', [{ field: 'description', schemaPath: /description/ }, { field: 'expiresIn', schemaPath: /expires/ }]);
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <TextInput label={t('keys.description')} data-autofocus {...form.getInputProps('description')} />
          <Select label={t('keys.expiresIn')} data={EXPIRY_CHOICES.map((c) => ({ value: c, label: t(`keys.expires.${c}`) }))} allowDeselect={false} {...form.getInputProps('expiresIn')} />
          <Stack gap="xs" role="group" aria-labelledby="keys-which-label">
            <Text size="sm" fw={500} id="keys-which-label">{t('keys.which')}</Text>
            <Checkbox label={t('keys.publishable')} {...form.getInputProps('publishable', { type: 'checkbox' })} error={undefined} />
            <Checkbox label={t('keys.secret')} {...form.getInputProps('secret', { type: 'checkbox' })} error={undefined} />
            <Checkbox label={t('keys.admin')} {...form.getInputProps('admin', { type: 'checkbox' })} error={undefined} />
            {form.errors.admin && <Text c="red" size="sm">{form.errors.admin}</Text>}
          </Stack>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('keys.create')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function FirstViewModal({ keys, onClose }: { keys: InternalApiKeyFirstView; onClose(): void }) {
  const [acknowledged, setAcknowledged] = useState(false);
  const close = () => acknowledged && onClose();
  return (
    <Modal opened onClose={close} title={t('keys.firstViewTitle')} closeOnClickOutside={false} closeOnEscape={false} withCloseButton={false} size="lg">
      <Stack>
        <Alert color="yellow">{t('keys.firstViewText')}</Alert>
        {keys.publishableClientKey && <CopyField label={t('keys.publishable')} value={keys.publishableClientKey} testId="first-view-publishable" />}
        {keys.secretServerKey && <CopyField label={t('keys.secret')} value={keys.secretServerKey} testId="first-view-secret" />}
        {keys.superSecretAdminKey && <CopyField label={t('keys.admin')} value={keys.superSecretAdminKey} testId="first-view-admin" />}
        <Checkbox label={t('keys.acknowledge')} checked={acknowledged} onChange={(e) => setAcknowledged(e.currentTarget.checked)} />
        <Group justify="flex-end"><Button disabled={!acknowledged} onClick={close}>{t('common.close')}</Button></Group>
      </Stack>
    </Modal>
  );
}

function RevokeModal({ apiKey, onClose }: { apiKey: InternalApiKey; onClose(): void }) {
  return (
    <ConfirmModal
      title={t('keys.revokeTitle', { description: apiKey.description })}
      text={t('keys.revokeText')}
      confirmLabel={t('keys.revoke')}
      onClose={onClose}
      onConfirm={async () => {
        await apiKey.revoke();
        notifications.show({ color: 'green', message: t('keys.revoked') });
        onClose();
      }}
    />
  );
}
