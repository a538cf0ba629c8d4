// The OAuth apps screen's "Client registration and resources" section (issue 27): dynamic client registration (RFC
// 7591) turned on or off at once, with the registration endpoint while it is on, and the protected resources (RFC
// 8707) listed, one added by URL (checked before sending by lib/oauth-provider-access.ts; a refusal of the service
// shown under the form) and one removed behind a confirmation: apps asking for it are refused from then on. The service
// replaces the whole list, so a change starts from the list as the service has it now, not the screen's copy: what
// another owner added meanwhile is kept (and counted).
// Loading and errors: the screen's boundary (the settings are the same read as "Scopes and claims").
import { useId, useState } from 'react';
import { ActionIcon, Alert, Button, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { ConfirmModal } from '../components/confirm-modal';
import { CopyField } from '../components/copy-field';
import { ErrorMessage } from '../components/error-message';
import { notifyError } from '../components/notify';
import { SectionCard } from '../components/section-card';
import { useFreshOAuthProviderSettings, useOAuthProviderSettings } from '../hooks/use-admin-lists';
import { useProjectContext } from '../hooks/use-project-context';
import { MAX_RESOURCES, registrationEndpoint, resourcesWith, resourcesWithout, validateResourceForm } from '../lib/oauth-provider-access';
import { t } from '../messages';

const messages = () => ({
  required: t('common.required'),
  url: t('oauthApps.access.resourceInvalid'),
  twice: t('oauthApps.access.resourceTwice'),
  tooMany: t('oauthApps.access.tooMany', { max: MAX_RESOURCES }),
});

export function ProviderAccessSection() {
  const settings = useOAuthProviderSettings();
  const freshSettings = useFreshOAuthProviderSettings();
  const { app, connection, projectId } = useProjectContext();
  const hintId = useId();
  const [switching, setSwitching] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState<unknown>(null);
  // A failure shown under the form is about the URL in the field: changing it takes the failure away.
  const form = useForm({
    initialValues: { resource: '' }, validate: (v) => validateResourceForm(v, settings.resources, messages()), onValuesChange: () => setRefused(null),
  });
  const toggle = async (on: boolean) => {
    setSwitching(true);
    try {
      await app.updateOAuthProviderSettings({ dynamicClientRegistration: on });
      notifications.show({ color: 'green', message: t(on ? 'oauthApps.access.registrationOn' : 'oauthApps.access.registrationOff') });
    } catch (e) {
      notifyError(e);
    } finally {
      setSwitching(false);
    }
  };
  return (
    <SectionCard title={t('oauthApps.access.title')}>
      {/* The explanation apart from the label: inside it (Mantine's description), it became part of the switch's name. */}
      <Stack gap={4}>
        <Switch label={t('oauthApps.access.registration')} aria-describedby={hintId}
          checked={settings.dynamicClientRegistration} disabled={switching} onChange={(e) => void toggle(e.currentTarget.checked)} />
        <Text id={hintId} size="sm" c="dimmed">{t('oauthApps.access.registrationHint')}</Text>
      </Stack>
      {settings.dynamicClientRegistration && (
        <CopyField label={t('oauthApps.access.registrationEndpoint')} value={registrationEndpoint(connection.serviceUrl, projectId)} testId="oauth-registration-endpoint" />
      )}
      <Stack gap={4}>
        <Text size="sm" fw={600}>{t('oauthApps.access.resources')}</Text>
        <Text size="sm" c="dimmed">{t('oauthApps.access.resourcesHint')}</Text>
        {settings.resources.length === 0 ? <Text size="sm" c="dimmed">{t('oauthApps.access.noResources')}</Text> : (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('oauthApps.access.resources')} data-testid="provider-resources">
            {settings.resources.map((r) => (
              <Group key={r} component="li" gap="xs" wrap="nowrap" justify="space-between">
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>{r}</Text>
                <ActionIcon variant="subtle" color="red" size="lg" aria-label={t('oauthApps.access.remove', { resource: r })} onClick={() => setRemoving(r)}>
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
      <form noValidate data-testid="provider-resource-form" onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        setRefused(null);
        try {
          const listed = (await freshSettings()).resources;
          const problems = validateResourceForm(v, listed, messages());
          if (Object.keys(problems).length > 0) {
            form.setErrors(problems);
            return;
          }
          await app.updateOAuthProviderSettings({ resources: resourcesWith(listed, v.resource) });
          notifications.show({ color: 'green', message: t('oauthApps.access.added') });
          form.reset();
        } catch (e) {
          setRefused(e);
        } finally {
          setSaving(false);
        }
      })}>
        <Stack gap="xs">
          {/* The button under the field, at every width: beside it, it lost its line with the field once it wrapped. */}
          <TextInput label={t('oauthApps.access.resourceUrl')} placeholder="https://api.example.com"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} {...form.getInputProps('resource')} />
          <Group>
            <Button type="submit" variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} loading={saving} disabled={saving}>{t('oauthApps.access.add')}</Button>
          </Group>
          {refused !== null && <Alert color="red" role="alert"><ErrorMessage error={refused} /></Alert>}
        </Stack>
      </form>
      {removing !== null && (
        <ConfirmModal title={t('oauthApps.access.removeTitle')} text={t('oauthApps.access.removeText')} confirmLabel={t('oauthApps.access.removeConfirm')}
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await app.updateOAuthProviderSettings({ resources: resourcesWithout((await freshSettings()).resources, removing) });
            notifications.show({ color: 'green', message: t('oauthApps.access.removed') });
            setRemoving(null);
          }}>
          {/* Apart from the sentence, so that a long URL wraps anywhere instead of widening the dialog. */}
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid="resource-to-remove">{removing}</Text>
        </ConfirmModal>
      )}
    </SectionCard>
  );
}
