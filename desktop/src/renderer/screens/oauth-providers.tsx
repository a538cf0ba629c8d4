// OAuth providers: all eleven, each enabled or disabled (a disabled one stays listed), shared or standard keys,
// and the callback URL to register at the provider.
import { useState } from 'react';
import { Button, Card, Group, Modal, PasswordInput, SegmentedControl, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { CopyField } from '../components/copy-field';
import { ScreenHeader } from '../components/screen-header';
import { useAdminProject, useProjectContext } from '../hooks/use-project-context';
import { showFieldError } from '../components/field-error';
import { OAUTH_PROVIDERS, callbackUrl, providerConfig, providerFormValues, validateProvider, withProvider } from '../lib/oauth-providers';
import { StatusBadge } from '../components/status-badge';
import { t } from '../messages';

type Provider = (typeof OAUTH_PROVIDERS)[number];

export function OAuthProvidersScreen() {
  const project = useAdminProject();
  const [editing, setEditing] = useState<Provider | null>(null);
  return (
    <Stack>
      <ScreenHeader title={t('oauth.title')} />
      <Card withBorder padding={0}>
        <Table verticalSpacing="sm" horizontalSpacing="md" aria-label={t('oauth.title')}>
          <Table.Tbody>
            {OAUTH_PROVIDERS.map((p) => {
              const c = project.config.oauthProviders.find((x) => x.id === p.id);
              return (
                <Table.Tr key={p.id} data-testid={`provider-${p.id}`}>
                  <Table.Td fw={600} w="30%">
                    {p.name}
                    {/* A phone has no room for the badges' column: they go under the name. */}
                    <Group gap="xs" mt={4} hiddenFrom="sm">{badges(c)}</Group>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Group gap="xs">{badges(c)}</Group>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Button size="xs" variant="default" onClick={() => setEditing(p)} aria-label={`${t('oauth.configure')} ${p.name}`}>{t('oauth.configure')}</Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Card>
      {editing && <ProviderModal provider={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

function ProviderModal({ provider, onClose }: { provider: Provider; onClose(): void }) {
  const project = useAdminProject();
  const { connection } = useProjectContext();
  const [saving, setSaving] = useState(false);
  const form = useForm({
    initialValues: providerFormValues(project.config.oauthProviders.find((p) => p.id === provider.id)),
    validate: (v) => validateProvider(provider.id, v),
  });
  const standard = form.values.type === 'standard';
  return (
    <Modal opened onClose={onClose} title={t('oauth.configureTitle', { provider: provider.name })} size="lg">
      <form onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          await project.update({ config: { oauthProviders: withProvider(project, providerConfig(provider.id, v)) } });
          notifications.show({ color: 'green', message: t('oauth.saved', { provider: provider.name }) });
          onClose();
        } catch (e) {
          showFieldError(form, e, 'type', [{ field: 'clientId', schemaPath: /client_id/ }, { field: 'clientSecret', schemaPath: /client_secret/ }]);
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <Switch label={t('oauth.enable')} {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="oauth-type-label">{t('oauth.type')}</Text>
            <SegmentedControl
              aria-labelledby="oauth-type-label"
              data={[{ value: 'shared', label: t('oauth.shared') }, { value: 'standard', label: t('oauth.standard') }]}
              {...form.getInputProps('type')}
            />
            {form.errors.type && <Text c="red" size="sm">{form.errors.type}</Text>}
          </Stack>
          {standard && (
            <>
              <TextInput label={t('oauth.clientId')} withAsterisk {...form.getInputProps('clientId')} />
              <PasswordInput label={t('oauth.clientSecret')} withAsterisk {...form.getInputProps('clientSecret')} />
              {provider.id === 'facebook' && <TextInput label={t('oauth.facebookConfigId')} {...form.getInputProps('facebookConfigId')} />}
              {provider.id === 'microsoft' && <TextInput label={t('oauth.microsoftTenantId')} {...form.getInputProps('microsoftTenantId')} />}
              <CopyField label={t('oauth.callbackUrl')} value={callbackUrl(connection.serviceUrl, provider.id)} testId="oauth-callback-url" />
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A provider's state: not configured, or enabled or not and with which credentials. */
function badges(c: { enabled: boolean; type: string } | undefined) {
  if (!c) return <StatusBadge color="gray">{t('oauth.notConfigured')}</StatusBadge>;
  return (
    <>
      <StatusBadge color={c.enabled ? 'green' : 'gray'}>{t(c.enabled ? 'oauth.enabled' : 'oauth.disabled')}</StatusBadge>
      <StatusBadge color="blue">{t(c.type === 'shared' ? 'oauth.shared' : 'oauth.standard')}</StatusBadge>
    </>
  );
}
