// A team's SCIM bearer tokens (issue 28): created by server or admin access (the value shown once, stored as a
// sha256 hash like other high-entropy secrets), listed, revoked; and the check of a SCIM request's bearer token,
// which names the team in its URL: a token of another team or project is refused as if unknown.
import { randomBytes } from 'node:crypto';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import { hashSecret } from '../db/secret-hash';
import type { Project } from '../repo/projects';
import * as teams from '../repo/teams';
import * as scim from '../repo/scim';
import { ScimError } from './scim-error';

export const SCIM_TOKEN_PREFIX = 'gh_scim_';

interface TeamInput { projectId: string; teamId: string }

async function assertTeam(services: Services, { projectId, teamId }: TeamInput): Promise<void> {
  if (!(await teams.findTeam(services.db, projectId, teamId))) throw new KnownErrors.TeamNotFound(teamId);
}

export async function createScimToken(services: Services, input: TeamInput & { description?: string }): Promise<{ row: scim.ScimTokenRow; token: string }> {
  await assertTeam(services, input);
  const token = SCIM_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const row = await scim.insertToken(services.db, { projectId: input.projectId, teamId: input.teamId, tokenHash: hashSecret(token), description: input.description ?? '' });
  return { row, token };
}

export async function listScimTokens(services: Services, input: TeamInput): Promise<scim.ScimTokenRow[]> {
  await assertTeam(services, input);
  return scim.listTokens(services.db, input.projectId, input.teamId);
}

export async function revokeScimToken(services: Services, input: TeamInput & { tokenId: string }): Promise<void> {
  if (!(await scim.deleteToken(services.db, input.projectId, input.teamId, input.tokenId))) throw new KnownErrors.ScimTokenNotFound(input.tokenId);
}

/** `tokenId`: the token that made the request, named in the provisioning log. */
export interface ScimCaller { project: Project; teamId: string; tokenId: string }

/** The team a SCIM request may act on, from its `Authorization: Bearer` header; 401 otherwise. */
export async function authenticateScim(services: Services, teamId: string, authorization: string | null): Promise<ScimCaller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new ScimError(401, 'Authorization: Bearer with a SCIM token of this team is required.');
  const row = await scim.findToken(services.db, teamId, hashSecret(match[1]!));
  if (!row) throw new ScimError(401, 'The bearer token is not a SCIM token of this team.');
  const project = await services.projects.get(row.projectId);
  if (!project) throw new ScimError(401, 'The bearer token is not a SCIM token of this team.');
  await scim.touchToken(services.db, row, new Date());
  return { project, teamId, tokenId: row.id };
}
