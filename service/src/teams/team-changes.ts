// Creating, updating and deleting teams (protocol-resources §2), each with its team.* event in the same transaction.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as teams from '../repo/teams';
import * as users from '../repo/users';
import { resolveMe, signedInUser, type Caller } from '../auth/caller';
import { assertClientProfileImage } from '../users/update';
import { serverTeamView } from '../presenters/teams';
import { accessibleTeam } from './team-access';

export interface TeamFields {
  displayName?: string;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
}

export interface NewTeam {
  caller: Caller;
  fields: TeamFields & { displayName: string };
  /** The body's creator (`me` allowed), made the first member with the creator's permissions. */
  creatorUserId?: string;
  /** The deprecated query parameter: the signed-in user as creator. */
  addCurrentUser?: 'true' | 'false';
}

/** Who the creator is, by the rules of the reference (undefined: a team without members). */
async function resolveCreator(services: Services, input: NewTeam): Promise<string | undefined> {
  const { caller, creatorUserId, addCurrentUser } = input;
  if (creatorUserId !== undefined && addCurrentUser !== undefined) {
    throw new StatusError(400, 'Cannot use both creator_user_id and add_current_user. add_current_user is deprecated, please only use creator_user_id in the body.');
  }
  let creator: string | undefined;
  if (addCurrentUser === 'true') {
    const user = await signedInUser(services, caller);
    if (!user) throw new StatusError(401, 'You must be logged in to create a team with the current user as a member.');
    creator = user.id;
  }
  if (caller.type === 'client') {
    const user = await signedInUser(services, caller);
    if (!user) throw new KnownErrors.UserAuthenticationRequired();
    if (!caller.project.config.client_team_creation_enabled) throw new StatusError(403, 'Client team creation is disabled for this project');
    assertClientProfileImage(input.fields.profileImageUrl);
    if (creatorUserId === undefined) return creator ?? user.id;
    if (resolveMe(caller, creatorUserId) !== user.id) {
      throw new StatusError(403, "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.");
    }
    return user.id;
  }
  if (creatorUserId === undefined) return creator;
  const id = resolveMe(caller, creatorUserId);
  if (!(await users.exists(services.db, caller.project.id, id))) throw new KnownErrors.UserNotFound();
  return id;
}

export async function createTeam(services: Services, input: NewTeam): Promise<teams.TeamRow> {
  const creatorUserId = await resolveCreator(services, input);
  const { project } = input.caller;
  return services.db.transaction(async (tx) => {
    const created = await teams.createTeam(tx, project, { ...input.fields, creatorUserId });
    await services.events.emit(tx, project.id, 'team.created', serverTeamView(created));
    return created;
  });
}

export async function updateTeam(services: Services, input: { caller: Caller; teamId: string; fields: TeamFields }): Promise<teams.TeamRow> {
  const { caller, teamId, fields } = input;
  await accessibleTeam(services, caller, teamId, '$update_team');
  if (caller.type === 'client') assertClientProfileImage(fields.profileImageUrl);
  const row = await services.db.transaction(async (tx) => {
    const updated = await teams.updateTeam(tx, caller.project.id, teamId, fields);
    if (updated) await services.events.emit(tx, caller.project.id, 'team.updated', serverTeamView(updated));
    return updated;
  });
  if (!row) throw new KnownErrors.TeamNotFound(teamId);
  return row;
}

export async function deleteTeam(services: Services, input: { caller: Caller; teamId: string }): Promise<void> {
  const { caller, teamId } = input;
  await accessibleTeam(services, caller, teamId, '$delete_team');
  const deleted = await services.db.transaction(async (tx) => {
    const gone = await teams.deleteTeam(tx, caller.project.id, teamId);
    if (gone) await services.events.emit(tx, caller.project.id, 'team.deleted', { id: teamId });
    return gone;
  });
  if (!deleted) throw new KnownErrors.TeamNotFound(teamId);
}

/** GET /teams: a user's teams (a client: only its own user's), or, for servers, all of the project's. */
export async function listTeams(services: Services, input: { caller: Caller; userId?: string }): Promise<teams.TeamRow[]> {
  const { caller, userId } = input;
  if (caller.type === 'client' && (userId === undefined || userId !== caller.userId)) {
    throw new StatusError(403, 'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user');
  }
  if (caller.type !== 'client' && userId !== undefined && !(await users.exists(services.db, caller.project.id, userId))) throw new KnownErrors.UserNotFound();
  return teams.listTeams(services.db, caller.project.id, { userId });
}
