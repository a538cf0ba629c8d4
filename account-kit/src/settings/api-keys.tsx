// API Keys of the user (client-library §7.5), shown when the project allows user API keys.
import type { CurrentUser } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { useUserApiKeys } from '../hooks/use-user-data';
import { SettingsSection } from '../widgets/settings-section';
import { ApiKeyPanel } from './api-key-panel';

export function ApiKeysSection({ user }: { user: CurrentUser }) {
  const t = useTranslate();
  return (
    <SettingsSection id="api-keys" title={t('settings.apiKeys.title')} description={t('settings.apiKeys.description')}>
      <UserKeys user={user} />
    </SettingsSection>
  );
}

function UserKeys({ user }: { user: CurrentUser }) {
  return <ApiKeyPanel keys={useUserApiKeys(user)} create={(o) => user.createApiKey(o)} />;
}
