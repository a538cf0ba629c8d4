// Teams, members, invitations and member profiles (client-library §1.7.5): the client view, and what the server
// view (server-team.ts) shares with it.
import { compact, items, cachedReadsSymbol, type ClientContext, type ReadonlyJson, type ServerContext } from './common.ts';
import { createApiKeyFor, listApiKeysRead, type ApiKeyCreateOptions, type TeamApiKey, type TeamApiKeyFirstView } from './api-keys.ts';
import type { CachedRead } from '../cache.ts';
import type { ClientCore } from '../core.ts';
import type { InternalSession } from '../session.ts';
import type { ServerUser } from './server-user.ts';
import type { TeamEnterprise } from './team-enterprise.ts';
import type {
  ClientMemberProfileJson,
  EmptyBody,
  ClientTeamJson,
  ClientTeamUpdateBody,
  ListOf,
  MemberProfileUpdateBody,
  ServerMemberProfileJson,
  ServerTeamJson,
  TeamInvitationJson,
  TeamInvitationSendBody,
} from '../wire.ts';

/** A team as a client sees it; a server's view adds `server_metadata` and `created_at_millis`. */
export type TeamJson = ClientTeamJson & Partial<Pick<ServerTeamJson, 'server_metadata' | 'created_at_millis'>>;

export type TeamAccess = 'client' | 'server' | 'admin';

export type TeamUpdateOptions = { displayName?: string; profileImageUrl?: string | null; clientMetadata?: ReadonlyJson };
export type ServerTeamUpdateOptions = TeamUpdateOptions & { clientReadOnlyMetadata?: ReadonlyJson; serverMetadata?: ReadonlyJson };

export interface TeamMemberProfile {
  readonly displayName: string | null;
  readonly profileImageUrl: string | null;
}
export interface EditableTeamMemberProfile extends TeamMemberProfile {
  update(update: { displayName?: string; profileImageUrl?: string | null }): Promise<void>;
}
export interface TeamUser {
  readonly id: string;
  readonly teamProfile: TeamMemberProfile;
  /** Gatehouse's addition: the member's primary email, when the service tells (to a member who may read members). */
  readonly primaryEmail: string | null;
  /** Gatehouse's addition: the team permissions granted to the member directly (read-only: granting is a server's). */
  readonly teamPermissionIds: readonly string[];
}
export type ServerTeamUser = ServerUser & { readonly teamProfile: TeamMemberProfile };

export interface TeamInvitation {
  readonly id: string;
  readonly recipientEmail: string | null;
  readonly expiresAt: Date;
  revoke(): Promise<void>;
}

export interface Team {
  readonly id: string;
  readonly displayName: string;
  readonly profileImageUrl: string | null;
  readonly clientMetadata: unknown;
  readonly clientReadOnlyMetadata: unknown;
  update(update: TeamUpdateOptions): Promise<void>;
  delete(): Promise<void>;
  inviteUser(options: { email: string; callbackUrl?: string }): Promise<void>;
  listUsers(): Promise<TeamUser[]>;
  /** Removes another member (needs `$remove_members`; yourself: `user.leaveTeam`). Gatehouse's addition. */
  removeUser(userId: string): Promise<void>;
  listInvitations(): Promise<TeamInvitation[]>;
  listApiKeys(): Promise<TeamApiKey[]>;
  createApiKey(options: ApiKeyCreateOptions): Promise<TeamApiKeyFirstView>;
  readonly [cachedReadsSymbol]: { users(): CachedRead<TeamUser[]>; invitations(): CachedRead<TeamInvitation[]>; apiKeys(): CachedRead<TeamApiKey[]> };
}

export interface ServerTeam extends Omit<Team, 'update' | 'listUsers' | 'removeUser' | typeof cachedReadsSymbol> {
  readonly createdAt: Date;
  readonly serverMetadata: unknown;
  update(update: ServerTeamUpdateOptions): Promise<void>;
  listUsers(): Promise<ServerTeamUser[]>;
  addUser(userId: string): Promise<void>;
  removeUser(userId: string): Promise<void>;
  /** The team as a customer organization: verified domains, SSO connections, SCIM (Gatehouse's addition, issue 28). */
  readonly enterprise: TeamEnterprise;
  readonly [cachedReadsSymbol]: { users(): CachedRead<ServerTeamUser[]>; invitations(): CachedRead<TeamInvitation[]>; apiKeys(): CachedRead<TeamApiKey[]> };
}

export function myTeamsCache(ctx: ClientContext) {
  return ctx.core.cache('my-teams', ([s]: [InternalSession]) => ctx.core.json<ListOf<ClientTeamJson>>('/teams?user_id=me', {}, s, 'client').then(items));
}

export function serverTeamsCache(ctx: ServerContext) {
  return ctx.core.cache(`server-teams:${ctx.access}`, ([userId]: [string | undefined]) =>
    ctx.core.json<ListOf<ServerTeamJson>>(userId ? `/teams?user_id=${encodeURIComponent(userId)}` : '/teams', {}, null, ctx.access).then(items),
  );
}

export function invitationsCache(core: ClientCore, access: TeamAccess) {
  return core.cache(`team-invitations:${access}`, ([s, teamId]: [InternalSession | null, string]) =>
    core.json<ListOf<TeamInvitationJson>>(`/team-invitations?team_id=${encodeURIComponent(teamId)}`, {}, s, access).then(items),
  );
}

/** A team's member profiles: the client view, or the server view carrying each member's user. */
export function memberProfilesCache<A extends TeamAccess>(core: ClientCore, access: A) {
  type Profile = A extends 'client' ? ClientMemberProfileJson : ServerMemberProfileJson;
  return core.cache(`team-member-profiles:${access}`, ([s, teamId]: [InternalSession | null, string]) =>
    core.json<ListOf<Profile>>(`/team-member-profiles?team_id=${encodeURIComponent(teamId)}`, {}, s, access).then(items),
  );
}

export function teamProfileCache(core: ClientCore, access: TeamAccess) {
  return core.cache(`team-member-profile:${access}`, ([s, teamId, userId]: [InternalSession | null, string, string]) =>
    core.json<ClientMemberProfileJson>(`/team-member-profiles/${teamId}/${userId}`, {}, s, access),
  );
}

export function createEditableProfile(
  core: ClientCore,
  session: InternalSession | null,
  access: TeamAccess,
  teamId: string,
  userId: string,
  json: { display_name: string | null; profile_image_url: string | null },
): EditableTeamMemberProfile {
  return Object.freeze({
    displayName: json.display_name,
    profileImageUrl: json.profile_image_url,
    async update(update: { displayName?: string; profileImageUrl?: string | null }) {
      await core.json<unknown, MemberProfileUpdateBody>(`/team-member-profiles/${teamId}/${userId}`, {
        method: 'PATCH',
        body: compact({ display_name: update.displayName, profile_image_url: update.profileImageUrl }),
      }, session, access);
      await teamProfileCache(core, access).refresh([session, teamId, userId]);
    },
  });
}

export function createInvitation(core: ClientCore, session: InternalSession | null, access: TeamAccess, json: TeamInvitationJson): TeamInvitation {
  return Object.freeze({
    id: json.id,
    recipientEmail: json.recipient_email ?? null,
    expiresAt: new Date(json.expires_at_millis),
    async revoke() {
      await core.json(`/team-invitations/${json.id}?team_id=${encodeURIComponent(json.team_id)}`, { method: 'DELETE' }, session, access);
      // Server and admin invitations are cached under [null, teamId]: their lists (and a console's view) follow too.
      await invitationsCache(core, access).refresh([session, json.team_id]);
    },
  });
}

export function teamFields(json: TeamJson) {
  return {
    id: json.id,
    displayName: json.display_name,
    profileImageUrl: json.profile_image_url,
    clientMetadata: json.client_metadata,
    clientReadOnlyMetadata: json.client_read_only_metadata,
  };
}

export async function sendInvite(
  core: ClientCore,
  session: InternalSession | null,
  access: TeamAccess,
  teamId: string,
  options: { email: string; callbackUrl?: string },
) {
  const callbackUrl = options.callbackUrl ?? core.redirector.constructRedirectUrl(core.urls.teamInvitation, 'callbackUrl');
  await core.json<unknown, TeamInvitationSendBody>('/team-invitations/send-code', {
    method: 'POST',
    body: { email: options.email, team_id: teamId, callback_url: callbackUrl },
  }, session, access);
  // Listing invitations needs $read_members as well: a member who may only invite has still invited.
  await invitationsCache(core, access).refresh([session, teamId]).catch(() => undefined);
}

export function createTeam(ctx: ClientContext, json: TeamJson): Team {
  const { core, session } = ctx;
  const owner = { kind: 'team' as const, teamId: json.id, ctx };
  const reads = {
    users: () =>
      memberProfilesCache(core, 'client').handle([session, json.id], 'team-users', (list) =>
        list.map((p) => Object.freeze({
          id: p.user_id,
          teamProfile: Object.freeze({ displayName: p.display_name, profileImageUrl: p.profile_image_url }),
          primaryEmail: p.primary_email ?? null,
          teamPermissionIds: Object.freeze([...(p.team_permission_ids ?? [])]),
        })),
      ),
    invitations: () =>
      invitationsCache(core, 'client').handle([session, json.id], 'invitations', (list) =>
        list.map((i) => createInvitation(core, session, 'client', i)),
      ),
    apiKeys: () => listApiKeysRead(owner) as CachedRead<TeamApiKey[]>,
  };
  return Object.freeze({
    ...teamFields(json),
    async update(update: TeamUpdateOptions) {
      await core.json<ClientTeamJson, ClientTeamUpdateBody>(`/teams/${json.id}`, {
        method: 'PATCH',
        body: compact({ display_name: update.displayName, profile_image_url: update.profileImageUrl, client_metadata: update.clientMetadata }),
      }, session, 'client');
      await myTeamsCache(ctx).refresh([session]);
    },
    async delete() {
      await core.json(`/teams/${json.id}`, { method: 'DELETE' }, session, 'client');
      await myTeamsCache(ctx).refresh([session]);
    },
    inviteUser: (options: { email: string; callbackUrl?: string }) => sendInvite(core, session, 'client', json.id, options),
    listUsers: () => reads.users().get(),
    async removeUser(userId: string) {
      await core.json<unknown, EmptyBody>(`/team-memberships/${json.id}/${userId}`, { method: 'DELETE', body: {} }, session, 'client');
      await memberProfilesCache(core, 'client').refresh([session, json.id]);
    },
    listInvitations: () => reads.invitations().get(),
    listApiKeys: () => reads.apiKeys().get(),
    createApiKey: (options: ApiKeyCreateOptions) => createApiKeyFor(owner, options) as Promise<TeamApiKeyFirstView>,
    [cachedReadsSymbol]: reads,
  });
}
