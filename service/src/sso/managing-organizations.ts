// Which organizations' identity providers manage a user (account settings shows them): the teams whose SSO they
// signed in through, and the teams whose SCIM provisioned them, one entry per team.
import type { Services } from '../services';
import * as sso from '../repo/sso';

export interface ManagingOrganization {
  teamId: string;
  teamName: string;
  connectionName: string | null;
  connectionType: 'saml' | 'oidc' | null;
  provisionedByScim: boolean;
}

export async function managingOrganizations(services: Services, input: { projectId: string; userId: string }): Promise<ManagingOrganization[]> {
  const { viaSso, viaScim } = await sso.managingTeams(services.db, input.projectId, input.userId);
  const byTeam = new Map<string, ManagingOrganization>();
  for (const s of viaSso) {
    if (!byTeam.has(s.teamId)) byTeam.set(s.teamId, { teamId: s.teamId, teamName: s.teamName, connectionName: s.connectionName, connectionType: s.type === 'saml' ? 'saml' : 'oidc', provisionedByScim: false });
  }
  for (const s of viaScim) {
    const known = byTeam.get(s.teamId);
    if (known) known.provisionedByScim = true;
    else byTeam.set(s.teamId, { teamId: s.teamId, teamName: s.teamName, connectionName: null, connectionType: null, provisionedByScim: true });
  }
  return [...byTeam.values()];
}
