// A team's API keys (client-library §7.7, needs $manage_api_keys): the user panel's table and dialogs for
// `team.createApiKey`.
import type { Team } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { useTeamApiKeys } from '../hooks/use-user-data';
import { SettingsSection } from '../widgets/settings-section';
import { ApiKeyPanel } from './api-key-panel';
import { SectionBoundary } from './section-boundary';

export function TeamApiKeys({ team }: { team: Team }) {
  const t = useTranslate();
  return (
    <SettingsSection id="team-api-keys" title={t('settings.apiKeys.title')} description={t('settings.apiKeys.teamDescription')}>
      <SectionBoundary skeleton="table"><TeamKeys team={team} /></SectionBoundary>
    </SettingsSection>
  );
}

function TeamKeys({ team }: { team: Team }) {
  return <ApiKeyPanel keys={useTeamApiKeys(team)} create={(o) => team.createApiKey(o)} />;
}
