// The OAuth apps screen's "Client registration and resources" section (issue 27): dynamic client registration (RFC
// 7591) turned on or off at once, with the registration endpoint while it is on, and the protected resources (RFC
// 8707) listed, one added by URL (checked before sending by lib/oauth-provider-access.ts; a refusal of the service
// shown under the form) and one removed behind a confirmation: apps asking for it are refused from then on.
// Loading and errors: the screen's boundary (the settings are the same read as "Scopes and claims").
import { useState } from 'react';
import { ActionIcon, Alert, Button, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { ConfirmModal } from '../components/confirm-modal';
import { CopyField } from '../components/copy-field';
import { ErrorMessage } from '../components/error-message';
import { notifyError } from '../components/notify';
import { SectionCard } from '../components/section-card';
import { useOAuthProviderSettings } from '../hooks/use-admin-lists';
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
  const { app, connection, projectId } = useProjectContext();
  const [switching, setSwitching] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState<unknown>(null);
  const form = useForm({ initialValues: { resource: '' }, validate: (v) => validateResourceForm(v, settings.resources, messages()) });
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
      <Switch label={t('oauthApps.access.registration')} description={t('oauthApps.access.registrationHint')}
        checked={settings.dynamicClientRegistration} disabled={switching} onChange={(e) => void toggle(e.currentTarget.checked)} />
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
          await app.updateOAuthProviderSettings({ resources: resourcesWith(settings.resources, v.resource) });
          notifications.show({ color: 'green', message: t('oauthApps.access.added') });
          form.reset();
        } catch (e) {
          setRefused(e);
        } finally {
          setSaving(false);
        }
      })}>
        <Stack gap="xs">
          <Group align="flex-start" gap="xs" wrap="wrap">
            <TextInput label={t('oauthApps.access.resourceUrl')} placeholder="https://api.example.com" style={{ flex: '1 1 240px', minWidth: 0 }}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} {...form.getInputProps('resource')} />
            <Button type="submit" variant="light" mt={25} leftSection={<IconPlus size={14} aria-hidden />} loading={saving} disabled={saving}>{t('oauthApps.access.add')}</Button>
          </Group>
          {refused !== null && <Alert color="red" role="alert"><ErrorMessage error={refused} /></Alert>}
        </Stack>
      </form>
      {removing !== null && (
        <ConfirmModal title={t('oauthApps.access.removeTitle')} text={t('oauthApps.access.removeText', { resource: removing })} confirmLabel={t('oauthApps.access.removeConfirm')}
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await app.updateOAuthProviderSettings({ resources: resourcesWithout(settings.resources, removing) });
            notifications.show({ color: 'green', message: t('oauthApps.access.removed') });
            setRemoving(null);
          }} />
      )}
    </SectionCard>
  );
}
