// A team's API keys (client-library §7.7, needs $manage_api_keys): the user panel's table and dialogs for
// `team.createApiKey`.
import { useMemo } from 'react';
import { cachedReadsSymbol, type Team } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { SettingsSection } from '../widgets/settings-section';
import { ApiKeyPanel } from './api-key-panel';
import { SectionBoundary } from './section-boundary';

export function TeamApiKeys({ team }: { team: Team }) {
  const t = useTranslate();
  const read = useMemo(() => team[cachedReadsSymbol].apiKeys(), [team]);
  return (
    <SettingsSection id="team-api-keys" title={t('settings.apiKeys.title')} description={t('settings.apiKeys.teamDescription')}>
      <SectionBoundary skeleton="table"><ApiKeyPanel read={read} create={(o) => team.createApiKey(o)} /></SectionBoundary>
    </SettingsSection>
  );
}
