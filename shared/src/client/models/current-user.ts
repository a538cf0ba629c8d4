// The signed-in user as seen by a client app (client-library §1.7.2, §1.7.3 client column).
import type { KnownError } from '../../known-errors.ts';
import { hasCode } from '../known-error-catalogue.ts';
import type { CachedRead } from '../cache.ts';
import type { InternalSession } from '../session.ts';
import { createApiKeyFor, listApiKeysRead, type ApiKeyCreateOptions, type UserApiKey, type UserApiKeyFirstView } from './api-keys.ts';
import { cachedReadsSymbol, catchErrors, inFamily, items, query, splitScope, type ClientContext, type ReadonlyJson } from './common.ts';
import { contactChannelsCache, createContactChannel, type ContactChannel, type ContactChannelCreateOptions } from './contact-channels.ts';
import { connectedAccountRead, type OAuthConnection, type GetConnectedAccountOptions } from './connected-accounts.ts';
import { createActiveSession, type ActiveSession } from './sessions.ts';
import { createEditableProfile, createTeam, myTeamsCache, teamProfileCache, type EditableTeamMemberProfile, type Team } from './teams.ts';
import { authPart, baseUserFields, userUpdateToWire, type Auth, type BaseUser, type UserJson, type UserUpdateOptions } from './user-base.ts';
import type { AdminOwnedProject, AdminProjectCreateOptions } from './projects.ts';
import { createOwnedProjectsRead, ownerMethods } from './owned-projects.ts';
import type { OwnerInvitationDetails } from './owner-invitations.ts';
import { connectedAppFromJson, connectedAppsCache, revokeConnectedApp, type ConnectedApp } from './connected-apps.ts';
import type {
  ClientContactChannelCreateBody,
  ClientTeamCreateBody,
  ClientTeamJson,
  ClientUserJson,
  ClientUserUpdateBody,
  ContactChannelJson,
  EmptyBody,
  LegacySendVerificationCodeBody,
  ListOf,
  PasswordSetBody,
  PasswordUpdateBody,
  ProjectPermissionJson,
  UserDataExportJson,
  OAuthProviderInteractionJson,
  OAuthProviderInteractionResultJson,
  OAuthProviderInteractionAnswerBody,
  SessionJson,
  TeamPermissionJson,
  ManagingOrganizationJson,
} from '../wire.ts';

export type Permission = { readonly id: string };

export interface ManagingOrganization {
  readonly teamId: string;
  readonly teamDisplayName: string;
  readonly connectionDisplayName: string | null;
  readonly connectionType: 'saml' | 'oidc' | null;
  readonly provisionedByScim: boolean;
}

export interface UserExtra {
  readonly selectedTeam: Team | null;
  update(update: UserUpdateOptions): Promise<void>;
  setDisplayName(displayName: string): Promise<void>;
  setClientMetadata(metadata: ReadonlyJson): Promise<void>;
  setSelectedTeam(team: Team | null): Promise<void>;
  updatePassword(options: { oldPassword: string; newPassword: string }): Promise<KnownError | undefined>;
  setPassword(options: { password: string }): Promise<KnownError | undefined>;
  /** @deprecated use a contact channel's sendVerificationEmail */
  sendVerificationEmail(options?: { callbackUrl?: string }): Promise<KnownError | undefined>;
  delete(): Promise<void>;
  listContactChannels(): Promise<ContactChannel[]>;
  /** The organizations whose identity provider manages this account (SSO or SCIM; Gatehouse's addition, issue 28). */
  listManagingOrganizations(): Promise<ManagingOrganization[]>;
  createContactChannel(data: ContactChannelCreateOptions): Promise<ContactChannel>;
  listTeams(): Promise<Team[]>;
  getTeam(id: string): Promise<Team | null>;
  createTeam(data: { displayName: string; profileImageUrl?: string | null }): Promise<Team>;
  leaveTeam(team: Team): Promise<void>;
  getTeamProfile(team: Team): Promise<EditableTeamMemberProfile>;
  listPermissions(scope: Team, options?: { recursive?: boolean }): Promise<Permission[]>;
  listPermissions(options?: { recursive?: boolean }): Promise<Permission[]>;
  getPermission(scope: Team, permissionId: string): Promise<Permission | null>;
  getPermission(permissionId: string): Promise<Permission | null>;
  hasPermission(scope: Team, permissionId: string): Promise<boolean>;
  hasPermission(permissionId: string): Promise<boolean>;
  getConnectedAccount(provider: string, options: GetConnectedAccountOptions & { or: 'redirect' }): Promise<OAuthConnection>;
  getConnectedAccount(provider: string, options?: GetConnectedAccountOptions): Promise<OAuthConnection | null>;
  getActiveSessions(): Promise<ActiveSession[]>;
  revokeSession(sessionId: string): Promise<void>;
  listApiKeys(): Promise<UserApiKey[]>;
  createApiKey(options: ApiKeyCreateOptions): Promise<UserApiKeyFirstView>;
  /**
   * Gatehouse's own: disconnects the user's account at this OAuth provider (its stored tokens are deleted). Refused
   * with LAST_SIGN_IN_METHOD when it is the only way to sign in left.
   */
  disconnectOAuthProvider(providerId: string): Promise<void>;
  /** Gatehouse's own: everything the service holds about the user, as the JSON of GET /users/me/export. */
  exportData(): Promise<UserDataExportJson>;
  /**
   * Gatehouse's own: an authorization request of the project's OpenID provider waiting for this user (the consent
   * page's `?interaction=`): the client asking and the scopes it asks for.
   */
  getOAuthProviderRequest(interactionId: string): Promise<OAuthProviderInteractionJson>;
  /** Gatehouse's own: allows or denies that request; answers the URL the browser goes to next. */
  answerOAuthProviderRequest(interactionId: string, allow: boolean): Promise<string>;
  /** Gatehouse's own: the applications this user let sign them in through the project ("Connected apps"). */
  listConnectedApps(): Promise<ConnectedApp[]>;
  /** Gatehouse's own: revokes an application's access (its consent, grants and tokens). */
  revokeConnectedApp(clientId: string): Promise<void>;
}

export interface InternalUserExtra {
  createProject(options: AdminProjectCreateOptions): Promise<AdminOwnedProject>;
  listOwnedProjects(): Promise<AdminOwnedProject[]>;
  /** Gatehouse: the project an owner invitation's code is for (the code stays unused). */
  getOwnerInvitation(code: string): Promise<OwnerInvitationDetails>;
  /** Gatehouse: accepts an owner invitation; the user then owns its project, returned as their owned project. */
  acceptOwnerInvitation(code: string): Promise<AdminOwnedProject>;
}

export type CurrentUser = BaseUser & Auth & UserExtra & { readonly [cachedReadsSymbol]: CurrentUserReads };
export type CurrentInternalUser = CurrentUser & InternalUserExtra;

export interface CurrentUserReads {
  contactChannels(): CachedRead<ContactChannel[]>;
  teams(): CachedRead<Team[]>;
  teamProfile(team: Team): CachedRead<EditableTeamMemberProfile>;
  permissions(team: Team | null, recursive: boolean): CachedRead<Permission[]>;
  apiKeys(): CachedRead<UserApiKey[]>;
  connectedAccount(provider: string, options?: GetConnectedAccountOptions): CachedRead<OAuthConnection | null>;
  ownedProjects(): CachedRead<AdminOwnedProject[]>;
  connectedApps(): CachedRead<ConnectedApp[]>;
}

export function teamPermissionsCache(ctx: ClientContext) {
  return ctx.core.cache('my-team-permissions', ([s, teamId, recursive]: [InternalSession, string, boolean]) =>
    ctx.core.json<ListOf<TeamPermissionJson>>(`/team-permissions${query({ team_id: teamId, user_id: 'me', recursive })}`, {}, s, 'client').then(items),
  );
}

export function projectPermissionsCache(ctx: ClientContext) {
  return ctx.core.cache('my-project-permissions', ([s, recursive]: [InternalSession, boolean]) =>
    ctx.core.json<ListOf<ProjectPermissionJson>>(`/project-permissions${query({ user_id: 'me', recursive })}`, {}, s, 'client').then(items),
  );
}

export function createCurrentUser(ctx: ClientContext, json: UserJson): CurrentUser | CurrentInternalUser {
  const { core, session } = ctx;
  const refreshUser = () => core.refreshCurrentUser(session);
  const update = async (u: UserUpdateOptions) => {
    await core.json<ClientUserJson, ClientUserUpdateBody>('/users/me', { method: 'PATCH', body: userUpdateToWire(u) }, session, 'client');
    await refreshUser();
  };
  const reads: CurrentUserReads = {
    contactChannels: () => contactChannelsCache(ctx).handle([session], 'channels', (l) => l.map((c) => createContactChannel(ctx, c))),
    teams: () => myTeamsCache(ctx).handle([session], 'teams', (l) => l.map((t) => createTeam(ctx, t))),
    teamProfile: (team) =>
      teamProfileCache(core, 'client').handle([session, team.id, 'me'], 'profile', (p) =>
        createEditableProfile(core, session, 'client', team.id, 'me', p),
      ),
    permissions: (team, recursive) =>
      team
        ? teamPermissionsCache(ctx).handle([session, team.id, recursive], 'perms', (l) => l.map((p) => Object.freeze({ id: p.id })))
        : projectPermissionsCache(ctx).handle([session, recursive], 'perms', (l) => l.map((p) => Object.freeze({ id: p.id }))),
    apiKeys: () => listApiKeysRead({ kind: 'user', ctx }) as CachedRead<UserApiKey[]>,
    connectedAccount: (provider, options) => connectedAccountRead({ kind: 'client', ctx }, provider, options),
    ownedProjects: () => createOwnedProjectsRead(ctx),
    connectedApps: () => connectedAppsCache(ctx).handle([session], 'apps', (l) => l.map(connectedAppFromJson)),
  };
  const listPermissions = (a?: unknown, b?: { recursive?: boolean }) => {
    const [team, opts] = splitScope(a, b);
    return reads.permissions(team as Team | null, opts?.recursive ?? true).get();
  };
  const getPermission = async (a: unknown, b?: string) => {
    const [team, id] = typeof a === 'string' ? [null, a] : [a as Team, b!];
    const list = await listPermissions(team ?? undefined, { recursive: true });
    return list.find((p) => p.id === id) ?? null;
  };
  const user: CurrentUser & Partial<InternalUserExtra> = {
    ...baseUserFields(json),
    ...authPart(core, session, refreshUser),
    selectedTeam: json.selected_team ? createTeam(ctx, json.selected_team) : null,
    update,
    setDisplayName: (displayName) => update({ displayName }),
    setClientMetadata: (clientMetadata) => update({ clientMetadata }),
    setSelectedTeam: (team) => update({ selectedTeamId: team?.id ?? null }),
    updatePassword: async ({ oldPassword, newPassword }) => {
      const err = await catchErrors(
        () => core.json<unknown, PasswordUpdateBody>('/auth/password/update', { method: 'POST', body: { old_password: oldPassword, new_password: newPassword } }, session, 'client'),
        hasCode('PASSWORD_CONFIRMATION_MISMATCH'),
        inFamily('PASSWORD_REQUIREMENTS_NOT_MET'),
      );
      await refreshUser();
      return err;
    },
    setPassword: async ({ password }) => {
      const err = await catchErrors(
        () => core.json<unknown, PasswordSetBody>('/auth/password/set', { method: 'POST', body: { password } }, session, 'client'),
        inFamily('PASSWORD_REQUIREMENTS_NOT_MET'),
      );
      await refreshUser();
      return err;
    },
    sendVerificationEmail: async (options) => {
      const primaryEmail = json.primary_email;
      if (!primaryEmail) throw new Error('User does not have a primary email');
      const callbackUrl = options?.callbackUrl ?? core.redirector.constructRedirectUrl(core.urls.emailVerification, 'callbackUrl');
      return catchErrors(
        () => core.json<unknown, LegacySendVerificationCodeBody>('/contact-channels/send-verification-code', { method: 'POST', body: { email: primaryEmail, callback_url: callbackUrl } }, session, 'client'),
        hasCode('EMAIL_ALREADY_VERIFIED'),
      );
    },
    delete: async () => {
      await core.json('/users/me', { method: 'DELETE' }, session, 'client');
      session.markInvalid();
    },
    listContactChannels: () => reads.contactChannels().get(),
    listManagingOrganizations: async () => {
      const list = await core.json<ListOf<ManagingOrganizationJson>>('/users/me/identity-providers', {}, session, 'client');
      return items(list).map((o) => Object.freeze({
        teamId: o.team_id, teamDisplayName: o.team_display_name, connectionDisplayName: o.connection_display_name,
        connectionType: o.connection_type, provisionedByScim: o.provisioned_by_scim,
      }));
    },
    createContactChannel: async (data) => {
      const created = await core.json<ContactChannelJson, ClientContactChannelCreateBody>('/contact-channels', {
        method: 'POST',
        body: { value: data.value, type: data.type, used_for_auth: data.usedForAuth, is_primary: data.isPrimary, user_id: 'me' },
      }, session, 'client');
      await contactChannelsCache(ctx).refresh([session]);
      return createContactChannel(ctx, created);
    },
    listTeams: () => reads.teams().get(),
    getTeam: async (id) => (await reads.teams().get()).find((t) => t.id === id) ?? null,
    createTeam: async ({ displayName, profileImageUrl }) => {
      const created = await core.json<ClientTeamJson, ClientTeamCreateBody>('/teams', {
        method: 'POST',
        body: { display_name: displayName, profile_image_url: profileImageUrl, creator_user_id: 'me' },
      }, session, 'client');
      await myTeamsCache(ctx).refresh([session]);
      await update({ selectedTeamId: created.id });
      return createTeam(ctx, created);
    },
    leaveTeam: async (team) => {
      await core.json<unknown, EmptyBody>(`/team-memberships/${team.id}/me`, { method: 'DELETE', body: {} }, session, 'client');
    },
    getTeamProfile: (team) => reads.teamProfile(team).get(),
    listPermissions: listPermissions as UserExtra['listPermissions'],
    getPermission: getPermission as UserExtra['getPermission'],
    hasPermission: (async (a: unknown, b?: string) => (await getPermission(a, b)) !== null) as UserExtra['hasPermission'],
    getConnectedAccount: ((provider: string, options?: GetConnectedAccountOptions) =>
      reads.connectedAccount(provider, options).get()) as UserExtra['getConnectedAccount'],
    getActiveSessions: async () => items(await core.json<ListOf<SessionJson>>('/auth/sessions?user_id=me', {}, session, 'client')).map(createActiveSession),
    revokeSession: async (sessionId) => {
      await core.json(`/auth/sessions/${sessionId}?user_id=me`, { method: 'DELETE' }, session, 'client');
    },
    listApiKeys: () => reads.apiKeys().get(),
    createApiKey: (options) => createApiKeyFor({ kind: 'user', ctx }, options) as Promise<UserApiKeyFirstView>,
    disconnectOAuthProvider: async (providerId) => {
      await core.json(`/connected-accounts/me/${encodeURIComponent(providerId)}`, { method: 'DELETE' }, session, 'client');
      await refreshUser();
    },
    exportData: () => core.json<UserDataExportJson>('/users/me/export', {}, session, 'client'),
    listConnectedApps: () => reads.connectedApps().get(),
    revokeConnectedApp: (clientId) => revokeConnectedApp(ctx, clientId),
    getOAuthProviderRequest: (interactionId) =>
      core.json<OAuthProviderInteractionJson>(`/oauth-provider/interactions/${encodeURIComponent(interactionId)}`, {}, session, 'client'),
    answerOAuthProviderRequest: async (interactionId, allow) => (await core.json<OAuthProviderInteractionResultJson, OAuthProviderInteractionAnswerBody>(
      `/oauth-provider/interactions/${encodeURIComponent(interactionId)}`, { method: 'POST', body: { allow } }, session, 'client')).redirect_to,
    [cachedReadsSymbol]: reads,
  };
  Object.assign(user, ownerMethods(ctx));
  return Object.freeze(user) as CurrentUser | CurrentInternalUser;
}
