// Teams, members, invitations and member profiles (client-library §1.7.5).
import { compact, items, cachedReadsSymbol, type ClientContext, type ReadonlyJson, type ServerContext } from './common.ts';
import { createApiKeyFor, listApiKeysRead, type ApiKeyCreateOptions, type TeamApiKey, type TeamApiKeyFirstView } from './api-keys.ts';
import type { CachedRead } from '../cache.ts';
import type { ClientTeam, ServerTeam as ServerTeamWire } from '../../schemas/teams.ts';
import type { InternalSession } from '../session.ts';
import { createServerUser, type ServerUser, type ServerUserJson } from './server-user.ts';

/** A team as a client sees it; a server's view adds `server_metadata` and `created_at_millis`. */
export type TeamJson = ClientTeam & Partial<Pick<ServerTeamWire, 'server_metadata' | 'created_at_millis'>>;

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
  readonly clientMetadata: any;
  readonly clientReadOnlyMetadata: any;
  update(update: TeamUpdateOptions): Promise<void>;
  delete(): Promise<void>;
  inviteUser(options: { email: string; callbackUrl?: string }): Promise<void>;
  listUsers(): Promise<TeamUser[]>;
  listInvitations(): Promise<TeamInvitation[]>;
  listApiKeys(): Promise<TeamApiKey[]>;
  createApiKey(options: ApiKeyCreateOptions): Promise<TeamApiKeyFirstView>;
  readonly [cachedReadsSymbol]: { users(): CachedRead<TeamUser[]>; invitations(): CachedRead<TeamInvitation[]>; apiKeys(): CachedRead<TeamApiKey[]> };
}

export interface ServerTeam extends Omit<Team, 'update' | 'listUsers' | typeof cachedReadsSymbol> {
  readonly createdAt: Date;
  readonly serverMetadata: any;
  update(update: ServerTeamUpdateOptions): Promise<void>;
  listUsers(): Promise<ServerTeamUser[]>;
  addUser(userId: string): Promise<void>;
  removeUser(userId: string): Promise<void>;
  readonly [cachedReadsSymbol]: { users(): CachedRead<ServerTeamUser[]>; invitations(): CachedRead<TeamInvitation[]>; apiKeys(): CachedRead<TeamApiKey[]> };
}

export function myTeamsCache(ctx: ClientContext) {
  return ctx.core.cache<[InternalSession]>('my-teams', ([s]) => ctx.core.json('/teams?user_id=me', {}, s, 'client').then(items));
}

export function serverTeamsCache(ctx: ServerContext) {
  return ctx.core.cache<[string | undefined]>(`server-teams:${ctx.access}`, ([userId]) =>
    ctx.core.json(userId ? `/teams?user_id=${encodeURIComponent(userId)}` : '/teams', {}, null, ctx.access).then(items),
  );
}

function invitationsCache(core: ClientContext['core'], access: 'client' | 'server' | 'admin') {
  return core.cache<[InternalSession | null, string]>(`team-invitations:${access}`, ([s, teamId]) =>
    core.json(`/team-invitations?team_id=${encodeURIComponent(teamId)}`, {}, s, access).then(items),
  );
}

function memberProfilesCache(core: ClientContext['core'], access: 'client' | 'server' | 'admin') {
  return core.cache<[InternalSession | null, string]>(`team-member-profiles:${access}`, ([s, teamId]) =>
    core.json(`/team-member-profiles?team_id=${encodeURIComponent(teamId)}`, {}, s, access).then(items),
  );
}

export function teamProfileCache(core: ClientContext['core'], access: 'client' | 'server' | 'admin') {
  return core.cache<[InternalSession | null, string, string]>(`team-member-profile:${access}`, ([s, teamId, userId]) =>
    core.json(`/team-member-profiles/${teamId}/${userId}`, {}, s, access),
  );
}

export function createEditableProfile(
  core: ClientContext['core'],
  session: InternalSession | null,
  access: 'client' | 'server' | 'admin',
  teamId: string,
  userId: string,
  json: { display_name: string | null; profile_image_url: string | null },
): EditableTeamMemberProfile {
  return Object.freeze({
    displayName: json.display_name,
    profileImageUrl: json.profile_image_url,
    async update(update: { displayName?: string; profileImageUrl?: string | null }) {
      await core.json(`/team-member-profiles/${teamId}/${userId}`, {
        method: 'PATCH',
        body: compact({ display_name: update.displayName, profile_image_url: update.profileImageUrl }),
      }, session, access);
      await teamProfileCache(core, access).refresh([session, teamId, userId]);
    },
  });
}

function createInvitation(
  core: ClientContext['core'],
  session: InternalSession | null,
  access: 'client' | 'server' | 'admin',
  json: { id: string; team_id: string; recipient_email?: string | null; expires_at_millis: number },
): TeamInvitation {
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

function teamFields(json: TeamJson) {
  return {
    id: json.id,
    displayName: json.display_name,
    profileImageUrl: json.profile_image_url,
    clientMetadata: json.client_metadata,
    clientReadOnlyMetadata: json.client_read_only_metadata,
  };
}

async function sendInvite(
  core: ClientContext['core'],
  session: InternalSession | null,
  access: 'client' | 'server' | 'admin',
  teamId: string,
  options: { email: string; callbackUrl?: string },
) {
  const callbackUrl = options.callbackUrl ?? core.redirector.constructRedirectUrl(core.urls.teamInvitation, 'callbackUrl');
  await core.json('/team-invitations/send-code', {
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
      memberProfilesCache(core, 'client').handle([session, json.id], 'team-users', (list: any[]) =>
        list.map((p) => Object.freeze({ id: p.user_id, teamProfile: Object.freeze({ displayName: p.display_name, profileImageUrl: p.profile_image_url }) })),
      ),
    invitations: () =>
      invitationsCache(core, 'client').handle([session, json.id], 'invitations', (list: any[]) =>
        list.map((i) => createInvitation(core, session, 'client', i)),
      ),
    apiKeys: () => listApiKeysRead(owner) as CachedRead<TeamApiKey[]>,
  };
  return Object.freeze({
    ...teamFields(json),
    async update(update: TeamUpdateOptions) {
      await core.json(`/teams/${json.id}`, {
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
    listInvitations: () => reads.invitations().get(),
    listApiKeys: () => reads.apiKeys().get(),
    createApiKey: (options: ApiKeyCreateOptions) => createApiKeyFor(owner, options) as Promise<TeamApiKeyFirstView>,
    [cachedReadsSymbol]: reads,
  });
}

export function createServerTeam(ctx: ServerContext, json: TeamJson): ServerTeam {
  const { core, access } = ctx;
  const owner = { kind: 'team' as const, teamId: json.id, server: ctx };
  const refreshTeams = () => serverTeamsCache(ctx).refreshWhere(() => true);
  const refreshMembers = () => memberProfilesCache(core, access).refresh([null, json.id]);
  const reads = {
    users: () =>
      memberProfilesCache(core, access).handle([null, json.id], 'server-team-users', (list: any[]) =>
        list.map((p) =>
          Object.freeze({
            ...createServerUser(ctx, p.user as ServerUserJson),
            teamProfile: Object.freeze({ displayName: p.display_name, profileImageUrl: p.profile_image_url }),
          }),
        ),
      ),
    invitations: () =>
      invitationsCache(core, access).handle([null, json.id], 'invitations', (list: any[]) =>
        list.map((i) => createInvitation(core, null, access, i)),
      ),
    apiKeys: () => listApiKeysRead(owner) as CachedRead<TeamApiKey[]>,
  };
  return Object.freeze({
    ...teamFields(json),
    createdAt: new Date(json.created_at_millis ?? 0),
    serverMetadata: json.server_metadata,
    async update(update: ServerTeamUpdateOptions) {
      await core.json(`/teams/${json.id}`, {
        method: 'PATCH',
        body: compact({
          display_name: update.displayName,
          profile_image_url: update.profileImageUrl,
          client_metadata: update.clientMetadata,
          client_read_only_metadata: update.clientReadOnlyMetadata,
          server_metadata: update.serverMetadata,
        }),
      }, null, access);
      await refreshTeams();
    },
    async delete() {
      await core.json(`/teams/${json.id}`, { method: 'DELETE' }, null, access);
      await refreshTeams();
    },
    async addUser(userId: string) {
      await core.json(`/team-memberships/${json.id}/${userId}`, { method: 'POST', body: {} }, null, access);
      await refreshMembers();
    },
    async removeUser(userId: string) {
      await core.json(`/team-memberships/${json.id}/${userId}`, { method: 'DELETE', body: {} }, null, access);
      await refreshMembers();
    },
    inviteUser: (options: { email: string; callbackUrl?: string }) => sendInvite(core, null, access, json.id, options),
    listUsers: () => reads.users().get(),
    listInvitations: () => reads.invitations().get(),
    listApiKeys: () => reads.apiKeys().get(),
    createApiKey: (options: ApiKeyCreateOptions) => createApiKeyFor(owner, options) as Promise<TeamApiKeyFirstView>,
    [cachedReadsSymbol]: reads,
  });
}
