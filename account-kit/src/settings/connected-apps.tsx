// Connected apps (issue 27): the applications the person let sign them in with this account through the project's
// OpenID provider, with what each may see; revoking one ends its access (consent, grants and tokens).
import { Button, Group, Stack, Text } from '@mantine/core';
import type { CurrentUser } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { useConnectedApps } from '../hooks/use-user-data';
import { scopeKey } from '../lib/oauth-consent';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';
import { InlineConfirm } from '../widgets/inline-confirm';
import { SettingsSection } from '../widgets/settings-section';
import { notifySuccess, useSettingsAction } from './settings-actions';

registerEnglish(enPages);

export function ConnectedAppsSection({ user }: { user: CurrentUser }) {
  const t = useTranslate();
  const run = useSettingsAction();
  const apps = useConnectedApps(user);
  if (apps.length === 0) return null;
  return (
    <SettingsSection id="connected-apps" title={t('settings.apps.title')} description={t('settings.apps.description')}>
      <Stack gap="xs">
        {apps.map((app) => (
          <Group key={app.clientId} justify="space-between" wrap="wrap" gap="xs" data-testid={`connected-app-${app.clientId}`}>
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>{app.displayName}</Text>
              <Text size="xs" c="dimmed">
                {app.scopes.map((scope) => { const key = scopeKey(scope); return key ? t(key) : app.scopeDescriptions[scope] ?? scope; }).join(' · ')}
              </Text>
            </Stack>
            <InlineConfirm
              trigger={(open) => <Button variant="default" size="sm" onClick={open} aria-label={`${t('settings.apps.revoke')} ${app.displayName}`}>{t('settings.apps.revoke')}</Button>}
              text={t('settings.apps.confirm', { app: app.displayName })}
              confirmLabel={t('settings.apps.revoke')}
              onConfirm={async () => {
                if (await run(() => user.revokeConnectedApp(app.clientId))) notifySuccess(t('settings.apps.revoked', { app: app.displayName }));
              }}
            />
          </Group>
        ))}
      </Stack>
    </SettingsSection>
  );
}
