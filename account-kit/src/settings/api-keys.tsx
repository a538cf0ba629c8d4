// API Keys of the user (client-library §7.5), shown when the project allows user API keys.
import { useMemo } from 'react';
import { cachedReadsSymbol, type CurrentUser } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { SettingsSection } from '../widgets/settings-section';
import { ApiKeyPanel } from './api-key-panel';

export function ApiKeysSection({ user }: { user: CurrentUser }) {
  const t = useTranslate();
  const read = useMemo(() => user[cachedReadsSymbol].apiKeys(), [user]);
  return (
    <SettingsSection id="api-keys" title={t('settings.apiKeys.title')} description={t('settings.apiKeys.description')}>
      <ApiKeyPanel read={read} create={(o) => user.createApiKey(o)} />
    </SettingsSection>
  );
}
