// A team page's "Enterprise SSO" tab (issue 28): the team as a customer organization. Each section loads on its own.
import { Stack, Text } from '@mantine/core';
import type { ServerTeam } from '@gatehouse/shared/client';
import { ScreenBoundary } from '../components/screen-boundary';
import { t } from '../messages';
import { TeamDomainsCard } from './team-domains';
import { TeamSsoConnectionsCard } from './team-sso-connections';
import { TeamProvisioningLogCard } from './team-provisioning-log';
import { TeamScimCard } from './team-scim';

export function TeamEnterpriseTab({ team }: { team: ServerTeam }) {
  return (
    <Stack gap="lg">
      <Text c="dimmed">{t('enterprise.intro')}</Text>
      <ScreenBoundary><TeamDomainsCard team={team} /></ScreenBoundary>
      <ScreenBoundary><TeamSsoConnectionsCard team={team} /></ScreenBoundary>
      <ScreenBoundary><TeamScimCard team={team} /></ScreenBoundary>
      <ScreenBoundary><TeamProvisioningLogCard team={team} /></ScreenBoundary>
    </Stack>
  );
}
