// A team as a server or admin sees it (client-library §1.7.5 server column). Its members are server users and a server
// user has server teams: the user model (server-user.ts) passes its own factory in, so neither module imports the other
// at run time.
import { compact, cachedReadsSymbol, type ServerContext } from './common.ts';
import { createApiKeyFor, listApiKeysRead, type ApiKeyCreateOptions, type TeamApiKey, type TeamApiKeyFirstView } from './api-keys.ts';
import type { CachedRead } from '../cache.ts';
import type { ServerUser } from './server-user.ts';
import { createTeamEnterprise } from './team-enterprise.ts';
import {
  createInvitation,
  invitationsCache,
  memberProfilesCache,
  sendInvite,
  serverTeamsCache,
  teamFields,
  type ServerTeam,
  type ServerTeamUpdateOptions,
  type TeamJson,
} from './teams.ts';
import type { EmptyBody, ServerTeamJson, ServerTeamUpdateBody, ServerUserJson } from '../wire.ts';

/** Builds the server user of a member (createServerUser). */
export type ServerUserFactory = (ctx: ServerContext, json: ServerUserJson) => ServerUser;

export function createServerTeam(ctx: ServerContext, json: TeamJson, createUser: ServerUserFactory): ServerTeam {
  const { core, access } = ctx;
  const owner = { kind: 'team' as const, teamId: json.id, server: ctx };
  const refreshTeams = () => serverTeamsCache(ctx).refreshWhere(() => true);
  const refreshMembers = () => memberProfilesCache(core, access).refresh([null, json.id]);
  const reads = {
    users: () =>
      memberProfilesCache(core, access).handle([null, json.id], 'server-team-users', (list) =>
        list.map((p) =>
          Object.freeze({
            ...createUser(ctx, p.user),
            teamProfile: Object.freeze({ displayName: p.display_name, profileImageUrl: p.profile_image_url }),
          }),
        ),
      ),
    invitations: () =>
      invitationsCache(core, access).handle([null, json.id], 'invitations', (list) =>
        list.map((i) => createInvitation(core, null, access, i)),
      ),
    apiKeys: () => listApiKeysRead(owner) as CachedRead<TeamApiKey[]>,
  };
  return Object.freeze({
    ...teamFields(json),
    createdAt: new Date(json.created_at_millis ?? 0),
    serverMetadata: json.server_metadata,
    async update(update: ServerTeamUpdateOptions) {
      await core.json<ServerTeamJson, ServerTeamUpdateBody>(`/teams/${json.id}`, {
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
      await core.json<unknown, EmptyBody>(`/team-memberships/${json.id}/${userId}`, { method: 'POST', body: {} }, null, access);
      await refreshMembers();
    },
    async removeUser(userId: string) {
      await core.json<unknown, EmptyBody>(`/team-memberships/${json.id}/${userId}`, { method: 'DELETE', body: {} }, null, access);
      await refreshMembers();
    },
    inviteUser: (options: { email: string; callbackUrl?: string }) => sendInvite(core, null, access, json.id, options),
    listUsers: () => reads.users().get(),
    listInvitations: () => reads.invitations().get(),
    listApiKeys: () => reads.apiKeys().get(),
    createApiKey: (options: ApiKeyCreateOptions) => createApiKeyFor(owner, options) as Promise<TeamApiKeyFirstView>,
    enterprise: createTeamEnterprise(ctx, json.id),
    [cachedReadsSymbol]: reads,
  });
}
