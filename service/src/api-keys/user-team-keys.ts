// User and team API keys (protocol-resources §11.2): create (the full secret is shown once), list, read, update or
// revoke, and the server-side check of a presented key. Clients manage only their own user's keys and the keys of
// teams where they hold `$manage_api_keys`; servers and admins any owner's of the project.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as keys from '../repo/user-api-keys';
import * as teams from '../repo/teams';
import * as users from '../repo/users';
import { resolveMe, type Caller } from '../auth/caller';
import { assertTeamPermission, effectiveTeamPermissions } from '../teams/permission-check';
import { requireClientUser } from '../teams/team-access';

export type KeyKind = keys.KeyKind;
/** The owner a request names: `user_id` (`me` allowed) for user keys, `team_id` for team keys. */
export interface NamedOwner { user_id?: string; team_id?: string }

const MANAGE = '$manage_api_keys';
const forbidden = () => new StatusError(403, 'Client can only manage their own api keys');

function assertEnabled(caller: Caller, kind: KeyKind) {
  const c = caller.project.config;
  if (kind === 'user' && !c.allow_user_api_keys) throw new StatusError(400, 'User API keys are not enabled for this project.');
  if (kind === 'team' && !c.allow_team_api_keys) throw new StatusError(400, 'Team API keys are not enabled for this project.');
}

/** The owner named in a request (`me` resolved), or undefined. */
function requestedOwner(caller: Caller, kind: KeyKind, src: NamedOwner): string | undefined {
  if (kind === 'user') return src.user_id === undefined ? undefined : resolveMe(caller, src.user_id);
  return src.team_id;
}

/** A client may manage this owner's keys; for servers, a named owner must exist. */
async function assertCanManage(services: Services, caller: Caller, kind: KeyKind, ownerId: string | undefined) {
  const projectId = caller.project.id;
  if (caller.type === 'client') {
    const user = await requireClientUser(services, caller);
    if (ownerId === undefined) throw forbidden();
    if (kind === 'user' && ownerId !== user.id) throw forbidden();
    if (kind === 'team') await assertTeamPermission(services.db, projectId, ownerId, user.id, MANAGE);
    return;
  }
  if (ownerId === undefined) return;
  if (kind === 'user' && !(await users.exists(services.db, projectId, ownerId))) throw new KnownErrors.UserNotFound();
  if (kind === 'team' && !(await teams.findTeam(services.db, projectId, ownerId))) throw new KnownErrors.TeamNotFound(ownerId);
}

/**
 * The key `id` of this kind, if the caller may manage it. A key of someone else (or of another owner than the one
 * named in the query) answers API_KEY_NOT_FOUND, so clients learn nothing about keys that are not theirs.
 */
async function manageableKey(services: Services, caller: Caller, kind: KeyKind, id: string, query: NamedOwner): Promise<keys.KeyRow> {
  const projectId = caller.project.id;
  const named = requestedOwner(caller, kind, query);
  if (caller.type === 'client') {
    await requireClientUser(services, caller);
    if (named !== undefined) await assertCanManage(services, caller, kind, named);
  }
  const row = await keys.find(services.db, projectId, kind, id);
  const ownerId = row && (kind === 'user' ? row.userId : row.teamId);
  if (!row || !ownerId || (named !== undefined && named !== ownerId)) throw new KnownErrors.ApiKeyNotFound();
  if (caller.type === 'client') {
    const userId = caller.userId!;
    if (kind === 'user' && ownerId !== userId) throw new KnownErrors.ApiKeyNotFound();
    if (kind === 'team') {
      const held = await effectiveTeamPermissions(services.db, projectId, ownerId, userId);
      if (held === null) throw new KnownErrors.ApiKeyNotFound();
      if (!held.has(MANAGE)) throw new KnownErrors.TeamPermissionRequired(ownerId, userId, MANAGE);
    }
  }
  return row;
}

export interface NewApiKey { caller: Caller; kind: KeyKind; owner: NamedOwner; description: string; isPublic?: boolean; expiresAt: Date | null }

/** The new key and its full value (shown only now). */
export async function createApiKey(services: Services, input: NewApiKey): Promise<{ row: keys.KeyRow; value: string }> {
  const { caller, kind } = input;
  assertEnabled(caller, kind);
  const ownerId = requestedOwner(caller, kind, input.owner)!;
  await assertCanManage(services, caller, kind, ownerId);
  const isPublic = input.isPublic ?? false;
  const value = keys.generateKeyValue(kind, isPublic);
  const row = await keys.insert(services.db, {
    projectId: caller.project.id,
    owner: kind === 'user' ? { userId: ownerId } : { teamId: ownerId },
    description: input.description,
    isPublic,
    expiresAt: input.expiresAt,
    value,
  });
  if (!row) throw kind === 'user' ? new KnownErrors.UserNotFound() : new KnownErrors.TeamNotFound(ownerId);
  return { row, value };
}

/** Keys of the named owner, newest first (servers may list team keys project-wide). */
export async function listApiKeys(services: Services, input: { caller: Caller; kind: KeyKind; owner: NamedOwner }): Promise<keys.KeyRow[]> {
  const { caller, kind } = input;
  assertEnabled(caller, kind);
  const ownerId = requestedOwner(caller, kind, input.owner);
  // The reference lists one user's keys only, even for servers (team keys may be listed project-wide).
  if (kind === 'user' && ownerId === undefined && caller.type !== 'client') throw new KnownErrors.SchemaError('user_id is required for user API keys');
  await assertCanManage(services, caller, kind, ownerId);
  return keys.list(services.db, caller.project.id, kind, ownerId);
}

/** The key a presented secret is, if valid (revocation checked first, as the client library classifies keys). */
export async function checkApiKey(services: Services, input: { caller: Caller; kind: KeyKind; secret: string }): Promise<keys.KeyRow> {
  const { caller, kind } = input;
  assertEnabled(caller, kind);
  const row = await keys.findBySecret(services.db, caller.project.id, input.secret);
  if (!row) throw new KnownErrors.ApiKeyNotFound();
  const actual = keys.kindOf(row);
  if (actual !== kind) throw new KnownErrors.WrongApiKeyType(kind, actual);
  if (row.manuallyRevokedAt) throw new KnownErrors.ApiKeyRevoked();
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) throw new KnownErrors.ApiKeyExpired();
  return row;
}

export async function getApiKey(services: Services, input: { caller: Caller; kind: KeyKind; id: string; owner: NamedOwner }): Promise<keys.KeyRow> {
  assertEnabled(input.caller, input.kind);
  return manageableKey(services, input.caller, input.kind, input.id, input.owner);
}

/** Changes the description or expiry, or revokes the key (one way). `expiresAt` null: never expires. */
export async function updateApiKey(services: Services, input: {
  caller: Caller; kind: KeyKind; id: string; owner: NamedOwner; description?: string; expiresAt?: Date | null; revoke?: boolean;
}): Promise<keys.KeyRow> {
  const { caller, kind, id } = input;
  assertEnabled(caller, kind);
  await manageableKey(services, caller, kind, id, input.owner);
  const row = await keys.update(services.db, caller.project.id, kind, id, { description: input.description, expiresAt: input.expiresAt, revoke: input.revoke });
  if (!row) throw new KnownErrors.ApiKeyNotFound();
  return row;
}
