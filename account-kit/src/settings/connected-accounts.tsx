// Connected accounts (issue 30, ASVS 3.5.1): the OAuth accounts the person signs in with, each of which can be
// disconnected (its stored provider tokens are deleted), except the last way to sign in.
import { Group, Stack, Text, Button } from '@mantine/core';
import type { CurrentUser } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { canDisconnectOAuth } from '../lib/only-sign-in-method';
import { oauthProviderName } from '../lib/oauth-providers';
import { InlineConfirm } from '../widgets/inline-confirm';
import { SettingsSection } from '../widgets/settings-section';
import { notifySuccess, useSettingsAction } from './settings-actions';

export function ConnectedAccountsSection({ user }: { user: CurrentUser }) {
  const t = useTranslate();
  const run = useSettingsAction();
  if (user.oauthProviders.length === 0) return null;
  return (
    <SettingsSection id="connected-accounts" title={t('settings.connected.title')} description={t('settings.connected.description')}>
      <Stack gap="xs">
        {user.oauthProviders.map((p) => {
          const provider = oauthProviderName(p.id);
          return (
            <Group key={`${p.id}/${p.account_id}`} justify="space-between" wrap="wrap" gap="xs" data-testid={`connected-${p.id}`}>
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={500}>{provider}</Text>
                {p.email && <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>{p.email}</Text>}
              </Stack>
              {canDisconnectOAuth(user, p.id) ? (
                <InlineConfirm
                  trigger={(open) => <Button variant="default" size="sm" onClick={open} aria-label={`${t('settings.connected.disconnect')} ${provider}`}>{t('settings.connected.disconnect')}</Button>}
                  text={t('settings.connected.confirm', { provider })}
                  confirmLabel={t('settings.connected.disconnect')}
                  onConfirm={async () => {
                    if (await run(() => user.disconnectOAuthProvider(p.id))) notifySuccess(t('settings.connected.disconnected', { provider }));
                  }}
                />
              ) : (
                <Text size="xs" c="dimmed" maw={320}>{t('settings.connected.lastMethod')}</Text>
              )}
            </Group>
          );
        })}
      </Stack>
    </SettingsSection>
  );
}
