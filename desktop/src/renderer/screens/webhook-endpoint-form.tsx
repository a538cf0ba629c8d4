// The Webhooks screen's endpoint form, to add one or edit one: URL, description, and the events it receives
// (every event, or those ticked in the list of the event types that exist).
import { useState } from 'react';
import { Button, Checkbox, Group, Input, Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { WebhookEndpoint, WebhookEndpointFirstView } from '@gatehouse/shared/client';
import { showFieldError } from '../components/field-error';
import { useProjectContext } from '../hooks/use-project-context';
import { EVENT_TYPES, endpointCreateOptions, endpointFormValues, validateEndpointForm, type EndpointFormValues } from '../lib/webhooks';
import { t } from '../messages';

interface Props {
  /** The endpoint to edit, or null to add one. */
  editing: WebhookEndpoint | null;
  onClose(): void;
  /** After adding: the new endpoint with its secret, shown once. */
  onAdded?(v: WebhookEndpointFirstView): void;
}

export function EndpointFormModal({ editing, onClose, onAdded }: Props) {
  const { app } = useProjectContext();
  const [saving, setSaving] = useState(false);
  const form = useForm<Required<EndpointFormValues>>({
    initialValues: endpointFormValues(editing),
    validate: (v) => validateEndpointForm(v, { required: t('common.required'), url: t('webhooks.urlInvalid'), description: t('webhooks.descriptionTooLong'), events: t('webhooks.eventsRequired') }),
  });
  return (
    <Modal opened onClose={onClose} title={t(editing ? 'webhooks.editTitle' : 'webhooks.addTitle')} size="lg">
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          if (editing) {
            await app.updateWebhookEndpoint(editing.id, endpointCreateOptions(v));
            notifications.show({ color: 'green', message: t('webhooks.savedToast') });
            onClose();
          } else {
            const created = await app.createWebhookEndpoint(endpointCreateOptions(v));
            notifications.show({ color: 'green', message: t('webhooks.addedToast') });
            onAdded?.(created);
          }
        } catch (e) {
          showFieldError(form, e, 'url', [{ field: 'url', schemaPath: /url/ }, { field: 'description', schemaPath: /description/ }, { field: 'eventTypes', schemaPath: /event_types/ }]);
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <TextInput label={t('webhooks.url')} placeholder="https://example.com/webhooks" data-autofocus required {...form.getInputProps('url')} />
          <TextInput label={t('webhooks.description')} {...form.getInputProps('description')} />
          <Input.Wrapper label={t('webhooks.events')}>
            <Checkbox mt={4} label={t('webhooks.everyEvent')} {...form.getInputProps('allEvents', { type: 'checkbox' })} />
          </Input.Wrapper>
          {!form.values.allEvents && (
            <Checkbox.Group label={t('webhooks.chooseEvents')} {...form.getInputProps('eventTypes')}>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs" mt="xs">
                {EVENT_TYPES.map((type) => <Checkbox key={type} value={type} label={type} styles={{ label: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />)}
              </SimpleGrid>
            </Checkbox.Group>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{editing ? t('common.save') : t('webhooks.add')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
