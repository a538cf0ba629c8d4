// /user-api-keys and /team-api-keys (protocol-resources §11.2): create (the full secret is shown once), list, read,
// update/revoke, and the server-side check of a presented key. Both kinds share one handler set.
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { List } from '@gatehouse/shared/schemas/common';
import {
  ApiKeyCheck, ApiKeyClientUpdate, ApiKeyParams, ApiKeyServerUpdate, TeamApiKey, TeamApiKeyCreate, TeamApiKeyFirstView, TeamApiKeyQuery,
  UserApiKey, UserApiKeyCreate, UserApiKeyFirstView, UserApiKeyQuery,
} from '@gatehouse/shared/schemas/user-api-keys';
import { perAccess, route, type AuthedContext, type RouteDef } from '../http/route';
import * as keys from '../repo/user-api-keys';
import * as teams from '../repo/teams';
import * as users from '../repo/users';
import { assertTeamPermission, effectiveTeamPermissions } from '../teams/permission-check';
import { apiKeyView } from '../presenters/api-keys';

type Kind = keys.KeyKind;
const MANAGE = '$manage_api_keys';

function assertEnabled(ctx: AuthedContext, kind: Kind) {
  const c = ctx.auth.project.config;
  if (kind === 'user' && !c.allow_user_api_keys) throw new StatusError(400, 'User API keys are not enabled for this project.');
  if (kind === 'team' && !c.allow_team_api_keys) throw new StatusError(400, 'Team API keys are not enabled for this project.');
}

const clientUser = (ctx: AuthedContext) => ctx.requireUser(() => new KnownErrors.UserAuthenticationRequired());
const forbidden = () => new StatusError(403, 'Client can only manage their own api keys');

/** The owner named in a request (`me` resolved), or undefined. */
function requestedOwner(ctx: AuthedContext, kind: Kind, src: { user_id?: string; team_id?: string }): string | undefined {
  if (kind === 'user') return src.user_id === undefined ? undefined : ctx.resolveUserId(src.user_id);
  return src.team_id;
}

/**
 * Clients manage only their own user keys, and team keys of teams where they hold `$manage_api_keys` (membership
 * first). Servers may name any owner of the project, which must exist.
 */
async function assertCanManage(ctx: AuthedContext, kind: Kind, ownerId: string | undefined) {
  const projectId = ctx.auth.project.id;
  if (ctx.auth.type === 'client') {
    const user = await clientUser(ctx);
    if (ownerId === undefined) throw forbidden();
    if (kind === 'user' && ownerId !== user.id) throw forbidden();
    if (kind === 'team') await assertTeamPermission(ctx.services.db, projectId, ownerId, user.id, MANAGE);
    return;
  }
  if (ownerId === undefined) return;
  if (kind === 'user' && !(await users.exists(ctx.services.db, projectId, ownerId))) throw new KnownErrors.UserNotFound();
  if (kind === 'team' && !(await teams.findTeam(ctx.services.db, projectId, ownerId))) throw new KnownErrors.TeamNotFound(ownerId);
}

/**
 * The key `id` of this kind, if the caller may manage it. A key of someone else (or of another owner than the
 * one named in the query) answers API_KEY_NOT_FOUND, so clients learn nothing about keys that are not theirs.
 */
async function manageableKey(ctx: AuthedContext, kind: Kind, id: string, query: { user_id?: string; team_id?: string }) {
  const projectId = ctx.auth.project.id;
  const named = requestedOwner(ctx, kind, query);
  if (ctx.auth.type === 'client') {
    await clientUser(ctx);
    if (named !== undefined) await assertCanManage(ctx, kind, named);
  }
  const row = await keys.find(ctx.services.db, projectId, kind, id);
  const ownerId = row && (kind === 'user' ? row.userId : row.teamId);
  if (!row || !ownerId || (named !== undefined && named !== ownerId)) throw new KnownErrors.ApiKeyNotFound();
  if (ctx.auth.type === 'client') {
    const userId = ctx.auth.userId!;
    if (kind === 'user' && ownerId !== userId) throw new KnownErrors.ApiKeyNotFound();
    if (kind === 'team') {
      const held = await effectiveTeamPermissions(ctx.services.db, projectId, ownerId, userId);
      if (held === null) throw new KnownErrors.ApiKeyNotFound();
      if (!held.has(MANAGE)) throw new KnownErrors.TeamPermissionRequired(ownerId, userId, MANAGE);
    }
  }
  return row;
}

function routesFor(kind: Kind): RouteDef[] {
  const base = `/${kind}-api-keys`;
  const tags = [kind === 'user' ? 'User API keys' : 'Team API keys'];
  const Key = kind === 'user' ? UserApiKey : TeamApiKey;
  const Query = kind === 'user' ? UserApiKeyQuery : TeamApiKeyQuery;
  return [
    route({
      method: 'POST', path: base, summary: `Create a ${kind} API key (the value is shown only in this response)`, tags,
      access: [...ACCESS_TYPES], body: kind === 'user' ? UserApiKeyCreate : TeamApiKeyCreate,
      // 200, not 201: the reference's answer.
      response: kind === 'user' ? UserApiKeyFirstView : TeamApiKeyFirstView,
      async handler(ctx) {
        assertEnabled(ctx, kind);
        const body = ctx.body;
        const ownerId = requestedOwner(ctx, kind, body)!;
        await assertCanManage(ctx, kind, ownerId);
        const isPublic = body.is_public ?? false;
        const value = keys.generateKeyValue(kind, isPublic);
        const row = await keys.insert(ctx.services.db, {
          projectId: ctx.auth.project.id,
          owner: kind === 'user' ? { userId: ownerId } : { teamId: ownerId },
          description: body.description,
          isPublic,
          expiresAt: body.expires_at_millis == null ? null : new Date(body.expires_at_millis),
          value,
        });
        if (!row) throw kind === 'user' ? new KnownErrors.UserNotFound() : new KnownErrors.TeamNotFound(ownerId);
        return apiKeyView(row, value);
      },
    }),
    route({
      method: 'GET', path: base, summary: `List ${kind} API keys, newest first (last four characters only)`, tags,
      access: [...ACCESS_TYPES], query: Query, response: List(Key),
      async handler(ctx) {
        assertEnabled(ctx, kind);
        const ownerId = requestedOwner(ctx, kind, ctx.query);
        // The reference lists one user's keys only, even for servers (team keys may be listed project-wide).
        if (kind === 'user' && ownerId === undefined && ctx.auth.type !== 'client') throw new KnownErrors.SchemaError('user_id is required for user API keys');
        await assertCanManage(ctx, kind, ownerId);
        const rows = await keys.list(ctx.services.db, ctx.auth.project.id, kind, ownerId);
        return { items: rows.map((r) => apiKeyView(r)), is_paginated: false as const };
      },
    }),
    route({
      method: 'POST', path: `${base}/check`, summary: `Check a ${kind} API key; answers the key if it is valid`, tags,
      access: ['server', 'admin'], body: ApiKeyCheck, response: Key,
      async handler(ctx) {
        assertEnabled(ctx, kind);
        const row = await keys.findBySecret(ctx.services.db, ctx.auth.project.id, ctx.body.api_key);
        if (!row) throw new KnownErrors.ApiKeyNotFound();
        const actual = keys.kindOf(row);
        if (actual !== kind) throw new KnownErrors.WrongApiKeyType(kind, actual);
        // Revocation first, as the client library classifies keys.
        if (row.manuallyRevokedAt) throw new KnownErrors.ApiKeyRevoked();
        if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) throw new KnownErrors.ApiKeyExpired();
        return apiKeyView(row);
      },
    }),
    route({
      method: 'GET', path: `${base}/:api_key_id`, summary: `Get a ${kind} API key`, tags,
      access: [...ACCESS_TYPES], params: ApiKeyParams, query: Query, response: Key,
      async handler(ctx) {
        assertEnabled(ctx, kind);
        return apiKeyView(await manageableKey(ctx, kind, ctx.params.api_key_id, ctx.query));
      },
    }),
    route({
      method: 'PATCH', path: `${base}/:api_key_id`, summary: `Update a ${kind} API key, or revoke it (one way)`, tags,
      access: [...ACCESS_TYPES], params: ApiKeyParams, query: Query, body: perAccess({ client: ApiKeyClientUpdate, server: ApiKeyServerUpdate }), response: Key,
      async handler(ctx) {
        assertEnabled(ctx, kind);
        await manageableKey(ctx, kind, ctx.params.api_key_id, ctx.query);
        const body = ctx.body;
        const row = await keys.update(ctx.services.db, ctx.auth.project.id, kind, ctx.params.api_key_id, {
          description: body.description,
          expiresAt: body.expires_at_millis === undefined ? undefined : body.expires_at_millis === null ? null : new Date(body.expires_at_millis),
          revoke: body.revoked,
        });
        if (!row) throw new KnownErrors.ApiKeyNotFound();
        return apiKeyView(row);
      },
    }),
  ];
}

export const userApiKeyRoutes = [...routesFor('user'), ...routesFor('team')];
