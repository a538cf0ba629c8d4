// The OAuth apps screen's form, to register an app or edit one: name, logo URL, confidential or public (chosen once),
// redirect URIs one a line, grant types and scopes. Checked before sending (lib/oauth-apps.ts).
import { useState } from 'react';
import { Button, Checkbox, Group, Input, Modal, NumberInput, Radio, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { OAuthProviderClient, OAuthProviderClientFirstView } from '@gatehouse/shared/client';
import { showFieldError } from '../components/field-error';
import { useProjectContext } from '../hooks/use-project-context';
import { useOAuthProviderSettings } from '../hooks/use-admin-lists';
import {
  GRANT_LABEL_KEYS, GRANT_TYPES, LIFETIME_FIELDS, SCOPES, oauthAppCreateOptions, oauthAppFormValues, oauthAppUpdateOptions, validateOAuthAppForm,
} from '../lib/oauth-apps';
import { t } from '../messages';

interface Props {
  /** The app to edit, or null to register one. */
  editing: OAuthProviderClient | null;
  onClose(): void;
  /** After registering: the new client with its secret (confidential), shown once. */
  onAdded?(v: OAuthProviderClientFirstView): void;
}

const messages = () => ({
  required: t('common.required'),
  redirectUri: (line: number) => t('oauthApps.redirectUriInvalid', { line }),
  tooManyRedirectUris: t('oauthApps.tooManyRedirectUris'),
  grantRequired: t('oauthApps.grantRequired'),
  scopeRequired: t('oauthApps.scopeRequired'),
  publicClientCredentials: t('oauthApps.publicClientCredentials'),
  refreshNeedsUserGrant: t('oauthApps.refreshNeedsUserGrant'),
  codeNeedsRedirectUri: t('oauthApps.codeNeedsRedirectUri'),
  lifetime: (min: number, max: number) => t('oauthApps.lifetimeRange', { min, max }),
});

const MONO = { label: { fontFamily: 'var(--mantine-font-family-monospace)' } };

export function OAuthAppFormModal({ editing, onClose, onAdded }: Props) {
  const { app } = useProjectContext();
  // The project's own scopes may be allowed too (the "Scopes and claims" settings).
  const projectScopes = useOAuthProviderSettings().scopes.map((s) => s.name);
  const [saving, setSaving] = useState(false);
  const form = useForm({ initialValues: oauthAppFormValues(editing), validate: (v) => validateOAuthAppForm(v, messages(), projectScopes) });
  return (
    <Modal opened onClose={onClose} title={t(editing ? 'oauthApps.editTitle' : 'oauthApps.addTitle')} size="lg">
      <form noValidate data-testid="oauth-app-form" onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          if (editing) {
            await app.updateOAuthProviderClient(editing.clientId, oauthAppUpdateOptions(v, projectScopes));
            notifications.show({ color: 'green', message: t('oauthApps.savedToast') });
            onClose();
          } else {
            const created = await app.createOAuthProviderClient(oauthAppCreateOptions(v, projectScopes));
            notifications.show({ color: 'green', message: t('oauthApps.addedToast') });
            onAdded?.(created);
          }
        } catch (e) {
          showFieldError(form, e, 'grantTypes', [
            { field: 'displayName', schemaPath: /display_name/ }, { field: 'logoUrl', schemaPath: /logo_url/ }, { field: 'redirectUris', schemaPath: /redirect_uris/ },
            { field: 'scopes', schemaPath: /scopes/ },
            ...LIFETIME_FIELDS.map(({ field }) => ({ field, schemaPath: new RegExp(field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)) })),
          ]);
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <TextInput label={t('oauthApps.name')} data-autofocus required {...form.getInputProps('displayName')} />
          <TextInput label={t('oauthApps.logoUrl')} description={t('oauthApps.logoUrlHint')} placeholder="https://example.com/logo.png" {...form.getInputProps('logoUrl')} />
          <Radio.Group label={t('oauthApps.type')} description={editing ? t('oauthApps.typeFixed') : undefined} {...form.getInputProps('clientType')}>
            <Stack gap="xs" mt="xs">
              {(['confidential', 'public'] as const).map((type) => (
                <Radio key={type} value={type} disabled={!!editing} label={t(`oauthApps.type.${type}`)} description={t(`oauthApps.type.${type}Hint`)} />
              ))}
            </Stack>
          </Radio.Group>
          <Textarea label={t('oauthApps.redirectUris')} description={t('oauthApps.redirectUrisHint')} placeholder="https://app.example.com/callback"
            autosize minRows={2} maxRows={8} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} {...form.getInputProps('redirectUris')} />
          <Checkbox.Group label={t('oauthApps.grantTypes')} {...form.getInputProps('grantTypes')}>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs" mt="xs">
              {GRANT_TYPES.map((g) => <Checkbox key={g} value={g} label={t(GRANT_LABEL_KEYS[g])} />)}
            </SimpleGrid>
          </Checkbox.Group>
          <Checkbox.Group label={t('oauthApps.scopes')} {...form.getInputProps('scopes')}>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs" mt="xs">
              {[...SCOPES, ...projectScopes].map((s) => <Checkbox key={s} value={s} label={s} styles={MONO} />)}
            </SimpleGrid>
          </Checkbox.Group>
          <Input.Wrapper labelElement="div" label={t('oauthApps.lifetimes')} description={t('oauthApps.lifetimesHint')}>
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs" mt="xs">
              {/* Not clamped: a value out of bounds is said so (validateOAuthAppForm) rather than silently changed. */}
              {LIFETIME_FIELDS.map(({ field, label, bounds }) => (
                <NumberInput key={field} label={t(label)} min={bounds.min} max={bounds.max} step={60} clampBehavior="none" allowDecimal={false} allowNegative={false}
                  thousandSeparator="," {...form.getInputProps(field)} />
              ))}
            </SimpleGrid>
          </Input.Wrapper>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{editing ? t('common.save') : t('oauthApps.add')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
