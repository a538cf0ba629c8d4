// The OAuth apps screen's "Scopes and claims" section (issue 27): the project's own scopes and the custom claims it
// maps from user metadata, listed, and a form to edit them (checked before sending by lib/oauth-provider-settings.ts;
// the service refuses a change it cannot keep as a whole, shown under the form).
import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Checkbox, Group, Modal, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import type { OAuthProviderSettings } from '@gatehouse/shared/client';
import { ErrorMessage } from '../components/error-message';
import { SectionCard } from '../components/section-card';
import { useOAuthProviderSettings } from '../hooks/use-admin-lists';
import { useProjectContext } from '../hooks/use-project-context';
import {
  claimScopeOptions, emptyClaimRow, emptyScopeRow, providerSettingsFormValues, providerSettingsUpdateOptions, validateProviderSettingsForm,
} from '../lib/oauth-provider-settings';
import { t } from '../messages';

const messages = () => ({
  required: t('common.required'),
  scopeToken: t('oauthApps.settings.scopeToken'),
  scopeStandard: t('oauthApps.settings.scopeStandard'),
  scopeTwice: t('oauthApps.settings.scopeTwice'),
  descriptionTooLong: t('oauthApps.settings.descriptionTooLong'),
  claimName: t('oauthApps.settings.claimName'),
  claimReserved: t('oauthApps.settings.claimReserved'),
  claimTwice: t('oauthApps.settings.claimTwice'),
  source: t('oauthApps.settings.sourceInvalid'),
  claimScope: t('oauthApps.settings.claimScopeInvalid'),
  tooManyScopes: t('oauthApps.settings.tooManyScopes'),
  tooManyClaims: t('oauthApps.settings.tooManyClaims'),
});

const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

export function ProviderSettingsSection() {
  const settings = useOAuthProviderSettings();
  const [editing, setEditing] = useState(false);
  return (
    <SectionCard title={t('oauthApps.settings.title')}>
      <Text size="sm" c="dimmed">{t('oauthApps.settings.intro')}</Text>
      <Stack gap={4}>
        <Text size="sm" fw={600}>{t('oauthApps.settings.scopes')}</Text>
        {settings.scopes.length === 0 ? <Text size="sm" c="dimmed">{t('oauthApps.settings.noScopes')}</Text> : (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('oauthApps.settings.scopes')} data-testid="provider-scopes">
            {settings.scopes.map((s) => (
              <Group key={s.name} component="li" gap="xs" wrap="wrap">
                <Badge size="sm" variant="light" color="gray" tt="none" ff="monospace" style={{ maxWidth: '100%' }}>{s.name}</Badge>
                <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>{s.description}</Text>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
      <Stack gap={4}>
        <Text size="sm" fw={600}>{t('oauthApps.settings.claims')}</Text>
        {settings.claims.length === 0 ? <Text size="sm" c="dimmed">{t('oauthApps.settings.noClaims')}</Text> : (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('oauthApps.settings.claims')} data-testid="provider-claims">
            {settings.claims.map((c) => (
              <Group key={c.claim} component="li" gap="xs" wrap="wrap">
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                  {t('oauthApps.settings.claimSummary', { claim: c.claim, source: c.source, scope: c.scope })}
                </Text>
                {c.inAccessToken && <Badge size="sm" variant="outline" color="gray" tt="none">{t('oauthApps.settings.inAccessTokenBadge')}</Badge>}
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
      <Group>
        <Button variant="default" size="xs" leftSection={<IconPencil size={14} aria-hidden />} onClick={() => setEditing(true)}>{t('oauthApps.settings.edit')}</Button>
      </Group>
      {editing && <ProviderSettingsModal settings={settings} onClose={() => setEditing(false)} />}
    </SectionCard>
  );
}

function ProviderSettingsModal({ settings, onClose }: { settings: OAuthProviderSettings; onClose(): void }) {
  const { app } = useProjectContext();
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState<unknown>(null);
  const form = useForm({ initialValues: providerSettingsFormValues(settings), validate: (v) => validateProviderSettingsForm(v, messages()) });
  const scopeChoices = claimScopeOptions(form.values);
  return (
    <Modal opened onClose={onClose} title={t('oauthApps.settings.editTitle')} size="xl">
      <form noValidate data-testid="provider-settings-form" onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        setRefused(null);
        try {
          await app.updateOAuthProviderSettings(providerSettingsUpdateOptions(v));
          notifications.show({ color: 'green', message: t('oauthApps.settings.savedToast') });
          onClose();
        } catch (e) {
          setRefused(e);
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
            <Text component="legend" fw={600}>{t('oauthApps.settings.scopes')}</Text>
            <Text size="sm" c="dimmed">{t('oauthApps.settings.scopesHint')}</Text>
            {form.errors.scopes && <Text size="sm" c="red">{form.errors.scopes}</Text>}
            {form.values.scopes.map((_, i) => (
              <Paper key={i} withBorder p="sm" role="group" aria-label={t('oauthApps.settings.scopeRow', { number: i + 1 })}>
                <Group align="flex-start" wrap="nowrap" gap="xs">
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" style={{ flex: 1, minWidth: 0 }}>
                    <TextInput label={t('oauthApps.settings.scopeName')} placeholder="billing:read" styles={MONO} {...form.getInputProps(`scopes.${i}.name`)} />
                    <TextInput label={t('oauthApps.settings.scopeDescription')} {...form.getInputProps(`scopes.${i}.description`)} />
                  </SimpleGrid>
                  <ActionIcon mt={26} variant="subtle" color="red" size="lg" aria-label={t('oauthApps.settings.removeScope', { number: i + 1 })} onClick={() => form.removeListItem('scopes', i)}>
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </Paper>
            ))}
            <Group>
              <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => form.insertListItem('scopes', emptyScopeRow())}>{t('oauthApps.settings.addScope')}</Button>
            </Group>
          </Stack>
          <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
            <Text component="legend" fw={600}>{t('oauthApps.settings.claims')}</Text>
            <Text size="sm" c="dimmed">{t('oauthApps.settings.claimsHint')}</Text>
            {form.errors.claims && <Text size="sm" c="red">{form.errors.claims}</Text>}
            {form.values.claims.map((c, i) => (
              <Paper key={i} withBorder p="sm" role="group" aria-label={t('oauthApps.settings.claimRow', { number: i + 1 })}>
                <Group align="flex-start" wrap="nowrap" gap="xs">
                  <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
                    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
                      <TextInput label={t('oauthApps.settings.claim')} placeholder="plan" styles={MONO} {...form.getInputProps(`claims.${i}.claim`)} />
                      <TextInput label={t('oauthApps.settings.source')} placeholder="client_metadata.plan" styles={MONO} {...form.getInputProps(`claims.${i}.source`)} />
                      <Select label={t('oauthApps.settings.claimScope')} allowDeselect={false} styles={MONO}
                        data={scopeChoices.includes(c.scope) || !c.scope ? scopeChoices : [...scopeChoices, c.scope]} {...form.getInputProps(`claims.${i}.scope`)} />
                    </SimpleGrid>
                    <Text size="xs" c="dimmed">{t('oauthApps.settings.sourceHint')}</Text>
                    <Checkbox label={t('oauthApps.settings.inAccessToken')} {...form.getInputProps(`claims.${i}.inAccessToken`, { type: 'checkbox' })} />
                  </Stack>
                  <ActionIcon mt={26} variant="subtle" color="red" size="lg" aria-label={t('oauthApps.settings.removeClaim', { number: i + 1 })} onClick={() => form.removeListItem('claims', i)}>
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </Paper>
            ))}
            <Group>
              <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => form.insertListItem('claims', emptyClaimRow())}>{t('oauthApps.settings.addClaim')}</Button>
            </Group>
          </Stack>
          {refused !== null && <Alert color="red" role="alert"><ErrorMessage error={refused} /></Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
