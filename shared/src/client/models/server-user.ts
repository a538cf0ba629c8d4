// Users as seen with server access (client-library §1.7.3 server column, §1.5).
import type { KnownError } from '../../known-errors.ts';
import { hasCode } from '../known-error-catalogue.ts';
import type { CachedRead } from '../cache.ts';
import { DEFAULT_SERVER_SESSION_LIFETIME_MS } from '../constants.ts';
import type { InternalSession } from '../session.ts';
import { createApiKeyFor, listApiKeysRead, type ApiKeyCreateOptions, type UserApiKey, type UserApiKeyFirstView } from './api-keys.ts';
import { cachedReadsSymbol, catchErrors, compact, inFamily, items, query, splitScope, type ReadonlyJson, type ServerContext } from './common.ts';
import { connectedAccountRead, type GetConnectedAccountOptions, type OAuthConnection } from './connected-accounts.ts';
import {
  createServerContactChannel,
  serverContactChannelsCache,
  type ServerContactChannel,
  type ServerContactChannelCreateOptions,
} from './contact-channels.ts';
import type { InternalUserExtra, Permission } from './current-user.ts';
import { createActiveSession, type ActiveSession } from './sessions.ts';
import { createServerTeam } from './server-team.ts';
import { createEditableProfile, serverTeamsCache, teamProfileCache, type EditableTeamMemberProfile, type ServerTeam } from './teams.ts';
import { serverUserCache, usersListCache, type ListUsersOptions } from './user-caches.ts';
import { authPart, baseUserFields, totpToWire, type Auth, type BaseUser } from './user-base.ts';
import { createOwnedProjectsRead, ownerMethods } from './owned-projects.ts';
import type { AdminOwnedProject } from './projects.ts';
import type {
  ContactChannelJson,
  EmptyBody,
  ListOf,
  PasswordUpdateBody,
  ProjectPermissionJson,
  ServerContactChannelCreateBody,
  ServerTeamCreateBody,
  ServerTeamJson,
  ServerUserCreateBody,
  ServerUserJson,
  ServerUserUpdateBody,
  SessionCreateBody,
  SessionJson,
  SessionTokensJson,
  TeamPermissionJson,
} from '../wire.ts';

export type { ListUsersOptions, ServerUserJson };
export type { UserFilterOptions } from './user-caches.ts';

export type ServerUserUpdateOptions = {
  displayName?: string | null;
  primaryEmail?: string | null;
  clientMetadata?: ReadonlyJson;
  clientReadOnlyMetadata?: ReadonlyJson;
  serverMetadata?: ReadonlyJson;
  selectedTeamId?: string | null;
  primaryEmailAuthEnabled?: boolean;
  primaryEmailVerified?: boolean;
  password?: string | null;
  profileImageUrl?: string | null;
  totpMultiFactorSecret?: Uint8Array | null;
  otpAuthEnabled?: boolean;
  passkeyAuthEnabled?: boolean;
};

export type ServerUserCreateOptions = {
  primaryEmail?: string | null;
  password?: string;
  otpAuthEnabled?: boolean;
  primaryEmailAuthEnabled?: boolean;
  displayName?: string;
  primaryEmailVerified?: boolean;
  clientMetadata?: ReadonlyJson;
  clientReadOnlyMetadata?: ReadonlyJson;
  serverMetadata?: ReadonlyJson;
};

type TeamRef = { id: string };

export interface ServerUser extends BaseUser {
  readonly lastActiveAt: Date;
  readonly serverMetadata: unknown;
  readonly primaryEmailAuthEnabled: boolean;
  readonly selectedTeam: ServerTeam | null;
  update(update: ServerUserUpdateOptions): Promise<void>;
  setDisplayName(displayName: string): Promise<void>;
  setClientMetadata(metadata: ReadonlyJson): Promise<void>;
  setClientReadOnlyMetadata(metadata: ReadonlyJson): Promise<void>;
  setServerMetadata(metadata: ReadonlyJson): Promise<void>;
  setSelectedTeam(team: TeamRef | null): Promise<void>;
  setPrimaryEmail(email: string | null, options?: { verified?: boolean }): Promise<void>;
  setPassword(options: { password: string }): Promise<void>;
  updatePassword(options: { oldPassword: string; newPassword: string }): Promise<KnownError | undefined>;
  sendVerificationEmail(): Promise<never>;
  delete(): Promise<void>;
  createSession(options?: { expiresInMillis?: number; isImpersonation?: boolean }): Promise<{ getTokens(): { accessToken: string; refreshToken: string } }>;
  getActiveSessions(): Promise<ActiveSession[]>;
  revokeSession(sessionId: string): Promise<void>;
  /** Gatehouse's own: disconnects the user's account at this OAuth provider and deletes its stored tokens. */
  disconnectOAuthProvider(providerId: string): Promise<void>;
  listTeams(): Promise<ServerTeam[]>;
  getTeam(id: string): Promise<ServerTeam | null>;
  createTeam(data: { displayName: string; profileImageUrl?: string | null }): Promise<ServerTeam>;
  leaveTeam(team: TeamRef): Promise<void>;
  listPermissions(scope: TeamRef, options?: { recursive?: boolean }): Promise<Permission[]>;
  listPermissions(options?: { recursive?: boolean }): Promise<Permission[]>;
  getPermission(scope: TeamRef, permissionId: string): Promise<Permission | null>;
  getPermission(permissionId: string): Promise<Permission | null>;
  hasPermission(scope: TeamRef, permissionId: string): Promise<boolean>;
  hasPermission(permissionId: string): Promise<boolean>;
  /** Team permission; with only an id, a project permission (Gatehouse extension). */
  grantPermission(scope: TeamRef, permissionId: string): Promise<void>;
  grantPermission(permissionId: string): Promise<void>;
  revokePermission(scope: TeamRef, permissionId: string): Promise<void>;
  revokePermission(permissionId: string): Promise<void>;
  getTeamProfile(team: TeamRef): Promise<EditableTeamMemberProfile>;
  listContactChannels(): Promise<ServerContactChannel[]>;
  createContactChannel(data: ServerContactChannelCreateOptions): Promise<ServerContactChannel>;
  getConnectedAccount(provider: string, options?: GetConnectedAccountOptions): Promise<OAuthConnection | null>;
  listApiKeys(): Promise<UserApiKey[]>;
  createApiKey(options: ApiKeyCreateOptions): Promise<UserApiKeyFirstView>;
  readonly [cachedReadsSymbol]: ServerUserReads;
}

export interface ServerUserReads {
  contactChannels(): CachedRead<ServerContactChannel[]>;
  teams(): CachedRead<ServerTeam[]>;
  teamProfile(team: TeamRef): CachedRead<EditableTeamMemberProfile>;
  permissions(team: TeamRef | null, recursive: boolean): CachedRead<Permission[]>;
  apiKeys(): CachedRead<UserApiKey[]>;
  connectedAccount(provider: string, options?: GetConnectedAccountOptions): CachedRead<OAuthConnection | null>;
}

export type CurrentServerUser = ServerUser & Auth & { readonly [cachedReadsSymbol]: CurrentServerUserReads };
/** A current server user of the `internal` project: also owns projects (§1.7.3). */
export type CurrentInternalServerUser = CurrentServerUser & InternalUserExtra;
export interface CurrentServerUserReads extends ServerUserReads {
  ownedProjects(): CachedRead<AdminOwnedProject[]>;
}

function serverTeamPermissionsCache(ctx: ServerContext) {
  return ctx.core.cache(`server-team-permissions:${ctx.access}`, ([teamId, userId, recursive]: [string, string, boolean]) =>
    ctx.core.json<ListOf<TeamPermissionJson>>(`/team-permissions${query({ team_id: teamId, user_id: userId, recursive })}`, {}, null, ctx.access).then(items),
  );
}

function serverProjectPermissionsCache(ctx: ServerContext) {
  return ctx.core.cache(`server-project-permissions:${ctx.access}`, ([userId, recursive]: [string, boolean]) =>
    ctx.core.json<ListOf<ProjectPermissionJson>>(`/project-permissions${query({ user_id: userId, recursive })}`, {}, null, ctx.access).then(items),
  );
}

/** After any server-side user change: every user-by-id entry, every list, every server contact-channel entry. */
export async function refreshServerUserCaches(ctx: ServerContext): Promise<void> {
  await Promise.all([
    serverUserCache(ctx).refreshWhere(() => true),
    usersListCache(ctx).refreshWhere(() => true),
    serverContactChannelsCache(ctx).refreshWhere(() => true),
  ]);
}

export function serverUserUpdateToWire(o: ServerUserUpdateOptions): ServerUserUpdateBody {
  return compact({
    display_name: o.displayName,
    primary_email: o.primaryEmail,
    client_metadata: o.clientMetadata,
    client_read_only_metadata: o.clientReadOnlyMetadata,
    server_metadata: o.serverMetadata,
    selected_team_id: o.selectedTeamId,
    primary_email_auth_enabled: o.primaryEmailAuthEnabled,
    primary_email_verified: o.primaryEmailVerified,
    password: o.password,
    profile_image_url: o.profileImageUrl,
    totp_secret_base64: totpToWire(o.totpMultiFactorSecret),
    otp_auth_enabled: o.otpAuthEnabled,
    passkey_auth_enabled: o.passkeyAuthEnabled,
  });
}

export function serverUserCreateToWire(o: ServerUserCreateOptions): ServerUserCreateBody {
  return compact({
    primary_email: o.primaryEmail,
    password: o.password,
    otp_auth_enabled: o.otpAuthEnabled,
    primary_email_auth_enabled: o.primaryEmailAuthEnabled,
    display_name: o.displayName,
    primary_email_verified: o.primaryEmailVerified,
    client_metadata: o.clientMetadata,
    client_read_only_metadata: o.clientReadOnlyMetadata,
    server_metadata: o.serverMetadata,
  });
}

export function createServerUser(ctx: ServerContext, json: ServerUserJson): ServerUser {
  const { core, access } = ctx;
  const id = json.id;
  const path = `/users/${id}`;
  const refreshUsers = () => refreshServerUserCaches(ctx);
  const update = async (u: ServerUserUpdateOptions) => {
    await core.json<ServerUserJson, ServerUserUpdateBody>(path, { method: 'PATCH', body: serverUserUpdateToWire(u) }, null, access);
    await refreshUsers();
  };
  const reads: ServerUserReads = {
    contactChannels: () =>
      serverContactChannelsCache(ctx).handle([id], 'channels', (l) =>
        l.map((c) => createServerContactChannel(ctx, c, () => serverUserCache(ctx).refresh([id]).then(() => undefined))),
      ),
    teams: () => serverTeamsCache(ctx).handle([id], 'teams', (l) => l.map((t) => createServerTeam(ctx, t, createServerUser))),
    teamProfile: (team) =>
      teamProfileCache(core, access).handle([null, team.id, id], 'profile', (p) => createEditableProfile(core, null, access, team.id, id, p)),
    permissions: (team, recursive) =>
      team
        ? serverTeamPermissionsCache(ctx).handle([team.id, id, recursive], 'perms', (l) => l.map((p) => Object.freeze({ id: p.id })))
        : serverProjectPermissionsCache(ctx).handle([id, recursive], 'perms', (l) => l.map((p) => Object.freeze({ id: p.id }))),
    apiKeys: () => listApiKeysRead({ kind: 'user', userId: id, server: ctx }) as CachedRead<UserApiKey[]>,
    connectedAccount: (provider, options) => connectedAccountRead({ kind: 'server', server: ctx, userId: id }, provider, options),
  };
  const listPermissions = (a?: unknown, b?: { recursive?: boolean }) => {
    const [team, opts] = splitScope(a, b);
    return reads.permissions(team, opts?.recursive ?? true).get();
  };
  const getPermission = async (a: unknown, b?: string) => {
    const [team, permId] = typeof a === 'string' ? [null, a] : [a as TeamRef, b!];
    const list = await listPermissions(team ?? undefined, { recursive: true });
    return list.find((p) => p.id === permId) ?? null;
  };
  const changePermission = async (method: 'POST' | 'DELETE', a: unknown, b?: string) => {
    const [team, permId] = typeof a === 'string' ? [null, a] : [a as TeamRef, b!];
    if (team) {
      await core.json<unknown, EmptyBody>(`/team-permissions/${team.id}/${id}/${encodeURIComponent(permId)}`, { method, body: {} }, null, access);
      await Promise.all([true, false].map((r) => serverTeamPermissionsCache(ctx).refresh([team.id, id, r])));
    } else {
      await core.json<unknown, EmptyBody>(`/project-permissions/${id}/${encodeURIComponent(permId)}`, { method, body: {} }, null, access);
      await Promise.all([true, false].map((r) => serverProjectPermissionsCache(ctx).refresh([id, r])));
    }
  };
  return Object.freeze({
    ...baseUserFields(json),
    lastActiveAt: new Date(json.last_active_at_millis),
    serverMetadata: json.server_metadata,
    primaryEmailAuthEnabled: json.primary_email_auth_enabled,
    selectedTeam: json.selected_team ? createServerTeam(ctx, json.selected_team, createServerUser) : null,
    update,
    setDisplayName: (displayName: string) => update({ displayName }),
    setClientMetadata: (clientMetadata: ReadonlyJson) => update({ clientMetadata }),
    setClientReadOnlyMetadata: (clientReadOnlyMetadata: ReadonlyJson) => update({ clientReadOnlyMetadata }),
    setServerMetadata: (serverMetadata: ReadonlyJson) => update({ serverMetadata }),
    setSelectedTeam: (team: TeamRef | null) => update({ selectedTeamId: team?.id ?? null }),
    setPrimaryEmail: (email: string | null, options?: { verified?: boolean }) =>
      update({ primaryEmail: email, primaryEmailVerified: options?.verified }),
    setPassword: async ({ password }: { password: string }) => {
      await update({ password });
      await serverUserCache(ctx).refresh([id]);
    },
    updatePassword: ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) =>
      catchErrors(
        () => core.json<unknown, PasswordUpdateBody>('/auth/password/update', { method: 'POST', body: { old_password: oldPassword, new_password: newPassword } }, null, access),
        hasCode('PASSWORD_CONFIRMATION_MISMATCH'),
        inFamily('PASSWORD_REQUIREMENTS_NOT_MET'),
      ),
    sendVerificationEmail: async (): Promise<never> => {
      // The service's feature-support answer (a plain-text explanation); its body is open, named only for the log.
      const res = await core.request<{ name: string }>('/check-feature-support', { method: 'POST', body: { name: 'sendVerificationEmail() on ServerUser' } }, null, access);
      throw new Error(await res.text());
    },
    delete: async () => {
      await core.json<unknown, EmptyBody>(path, { method: 'DELETE', body: {} }, null, access);
      await refreshUsers();
    },
    createSession: async (options?: { expiresInMillis?: number; isImpersonation?: boolean }) => {
      const tokens = await core.json<SessionTokensJson, SessionCreateBody>('/auth/sessions', {
        method: 'POST',
        body: {
          user_id: id,
          expires_in_millis: options?.expiresInMillis ?? DEFAULT_SERVER_SESSION_LIFETIME_MS,
          is_impersonation: options?.isImpersonation ?? false,
        },
      }, null, access);
      const frozen = Object.freeze({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
      return { getTokens: () => frozen };
    },
    getActiveSessions: async () => items(await core.json<ListOf<SessionJson>>(`/auth/sessions?user_id=${id}`, {}, null, access)).map(createActiveSession),
    // `user_id` is sent although the reference SDK omits it: the protocol requires it (protocol-auth §2.9).
    revokeSession: async (sessionId: string) => {
      await core.json(`/auth/sessions/${sessionId}?user_id=${id}`, { method: 'DELETE' }, null, access);
    },
    disconnectOAuthProvider: async (providerId: string) => {
      await core.json(`/connected-accounts/${id}/${encodeURIComponent(providerId)}`, { method: 'DELETE' }, null, access);
      await refreshUsers();
    },
    listTeams: () => reads.teams().get(),
    getTeam: async (teamId: string) => (await reads.teams().get()).find((t) => t.id === teamId) ?? null,
    createTeam: async ({ displayName, profileImageUrl }: { displayName: string; profileImageUrl?: string | null }) => {
      const created = await core.json<ServerTeamJson, ServerTeamCreateBody>('/teams', {
        method: 'POST',
        body: compact({ display_name: displayName, profile_image_url: profileImageUrl, creator_user_id: id }),
      }, null, access);
      await serverTeamsCache(ctx).refresh([undefined]);
      await update({ selectedTeamId: created.id });
      return createServerTeam(ctx, created, createServerUser);
    },
    leaveTeam: async (team: TeamRef) => {
      await core.json<unknown, EmptyBody>(`/team-memberships/${team.id}/${id}`, { method: 'DELETE', body: {} }, null, access);
    },
    listPermissions: listPermissions as ServerUser['listPermissions'],
    getPermission: getPermission as ServerUser['getPermission'],
    hasPermission: (async (a: unknown, b?: string) => (await getPermission(a, b)) !== null) as ServerUser['hasPermission'],
    grantPermission: ((a: unknown, b?: string) => changePermission('POST', a, b)) as ServerUser['grantPermission'],
    revokePermission: ((a: unknown, b?: string) => changePermission('DELETE', a, b)) as ServerUser['revokePermission'],
    getTeamProfile: (team: TeamRef) => reads.teamProfile(team).get(),
    listContactChannels: () => reads.contactChannels().get(),
    createContactChannel: async (data: ServerContactChannelCreateOptions) => {
      const created = await core.json<ContactChannelJson, ServerContactChannelCreateBody>('/contact-channels', {
        method: 'POST',
        body: compact({
          type: data.type,
          value: data.value,
          is_verified: data.isVerified ?? false,
          user_id: id,
          used_for_auth: data.usedForAuth,
          is_primary: data.isPrimary,
        }),
      }, null, access);
      await Promise.all([serverContactChannelsCache(ctx).refresh([id]), serverUserCache(ctx).refresh([id])]);
      return createServerContactChannel(ctx, created, () => serverUserCache(ctx).refresh([id]).then(() => undefined));
    },
    getConnectedAccount: (provider: string, options?: GetConnectedAccountOptions) => reads.connectedAccount(provider, options).get(),
    listApiKeys: () => reads.apiKeys().get(),
    createApiKey: (options: ApiKeyCreateOptions) => createApiKeyFor({ kind: 'user', userId: id, server: ctx }, options) as Promise<UserApiKeyFirstView>,
    [cachedReadsSymbol]: reads,
  });
}

/** The server view of a session's user: server methods, the `Auth` part and the internal-project owner methods. */
export function createCurrentServerUser(ctx: ServerContext, session: InternalSession, json: ServerUserJson): CurrentServerUser | CurrentInternalServerUser {
  const user = createServerUser(ctx, json);
  const auth = authPart(ctx.core, session, () => ctx.core.refreshCurrentUser(session));
  const owner = { core: ctx.core, session };
  const reads: CurrentServerUserReads = { ...user[cachedReadsSymbol], ownedProjects: () => createOwnedProjectsRead(owner) };
  return Object.freeze({ ...user, ...auth, ...ownerMethods(owner), [cachedReadsSymbol]: reads });
}
