// GatehouseServerApp (= StackServerApp): adds the secret server key and server views (client-library §1.5).
import { isKnownErrorInFamily } from '../known-errors/base.ts';
import type { AccessType } from './api-client.ts';
import {
  buildCore,
  requireProjectId,
  requirePublishableKey,
  requireSecretServerKey,
  type GatehouseServerAppOptions,
} from './app-options.ts';
import type { CachedRead } from './cache.ts';
import { GatehouseClientApp } from './client-app.ts';
import type { ClientCore } from './core.ts';
import { compact, items, query, type ServerContext } from './models/common.ts';
import {
  createCurrentServerUser,
  createServerUser,
  refreshServerUserCaches,
  serverUserCreateToWire,
  type CurrentServerUser,
  type ServerUser,
  type ServerUserCreateOptions,
} from './models/server-user.ts';
import { serverUserCache, userFilterQuery, usersListCache, usersListKey, type ListUsersOptions, type UserFilterOptions } from './models/user-caches.ts';
import { createServerTeam } from './models/server-team.ts';
import { serverTeamsCache, type ServerTeam } from './models/teams.ts';
import type { CurrentUserJson } from './core.ts';
import type { InternalSession } from './session.ts';
import type { GetUserOptions } from './client-app.ts';
import type { ApiKeyCheckBody, ServerTeamCreateBody, ServerTeamJson, ServerUserCreateBody, ServerUserJson, TeamApiKeyJson, UserApiKeyJson } from './wire.ts';

export type ServerUserList = ServerUser[] & { nextCursor: string | null };

export interface ServerAppReads {
  user(userId: string): CachedRead<ServerUser | null>;
  users(options?: ListUsersOptions): CachedRead<ServerUserList>;
  teams(): CachedRead<ServerTeam[]>;
}

export class GatehouseServerApp extends GatehouseClientApp<CurrentServerUser> {
  protected override readonly _userAccess: AccessType = 'server';
  /** @internal */
  readonly _server: ServerContext;

  constructor(options: GatehouseServerAppOptions);
  /** @internal */
  constructor(options: GatehouseServerAppOptions, core: ClientCore);
  constructor(options: GatehouseServerAppOptions, core?: ClientCore) {
    super(
      options,
      core ??
        buildCore(
          options,
          {
            projectId: requireProjectId(options.projectId),
            publishableClientKey: requirePublishableKey(options.publishableClientKey),
            secretServerKey: requireSecretServerKey(options.secretServerKey),
          },
          options.extraRequestHeaders ?? {},
        ),
    );
    // Server operations use the `server` access type on admin apps too.
    this._server = { core: this._core, access: 'server' };
  }

  protected override _createUser(session: InternalSession, json: CurrentUserJson<AccessType>) {
    // The server view: /users/me answered for the `server` access type.
    return createCurrentServerUser(this._server, session, json as ServerUserJson) as unknown as CurrentServerUser;
  }

  #team(json: ServerTeamJson): ServerTeam {
    return createServerTeam(this._server, json, createServerUser);
  }

  readonly serverReads: ServerAppReads = {
    user: (userId) => serverUserCache(this._server).handle([userId], 'user', (j) => (j ? createServerUser(this._server, j) : null)),
    users: (o) =>
      usersListCache(this._server).handle(usersListKey(o), 'users', (j) =>
        Object.assign(items(j).map((u) => createServerUser(this._server, u)), { nextCursor: j?.pagination?.next_cursor ?? null }),
      ),
    teams: () => serverTeamsCache(this._server).handle([undefined], 'teams', (l) => l.map((t) => this.#team(t))),
  };

  /** Current user (server view), a user by id, or the owner of a user API key. */
  override async getUser(options: GetUserOptions & { or: 'redirect' | 'throw' | 'anonymous' }): Promise<CurrentServerUser>;
  override async getUser(options?: GetUserOptions): Promise<(CurrentServerUser) | null>;
  override async getUser(id: string): Promise<ServerUser | null>;
  override async getUser(options: { apiKey: string }): Promise<ServerUser | null>;
  override async getUser(arg?: string | GetUserOptions | { apiKey: string }): Promise<CurrentServerUser | ServerUser | null> {
    if (typeof arg === 'string') return this.serverReads.user(arg).get();
    if (arg && 'apiKey' in arg) {
      const userId = await this.#checkApiKey('user', arg.apiKey);
      return userId ? this.getUser(userId) : null;
    }
    return super.getUser(arg as GetUserOptions);
  }

  /** @deprecated use getUser */
  async getServerUser() {
    console.warn('stackServerApp.getServerUser is deprecated; use stackServerApp.getUser instead');
    return this.getUser();
  }

  async #checkApiKey(type: 'user' | 'team', apiKey: string): Promise<string | null> {
    try {
      const json = await this._core.json<UserApiKeyJson | TeamApiKeyJson, ApiKeyCheckBody>(`/${type}-api-keys/check`, { method: 'POST', body: { api_key: apiKey } }, null, 'server');
      return (json.type === 'user' ? json.user_id : json.team_id) ?? null;
    } catch (err) {
      if (isKnownErrorInFamily(err, 'API_KEY_NOT_VALID')) return null;
      throw err;
    }
  }

  async listUsers(options?: ListUsersOptions): Promise<ServerUserList> {
    return this.serverReads.users(options).get();
  }

  /**
   * Gatehouse: every user matching the list's filters and search, as CSV (UTF-8, a header line, CRLF lines), a
   * stream the service writes as it is read: pipe it to a file rather than reading it whole.
   */
  async exportUsersCsv(options: Pick<ListUsersOptions, 'desc' | 'query'> & UserFilterOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const path = `/internal/users/export.csv${query({ desc: options.desc, query: options.query, ...userFilterQuery(options) })}`;
    const res = await this._core.request(path, {}, null, this._server.access);
    return res.body ?? new Response('').body!;
  }

  async createUser(options: ServerUserCreateOptions): Promise<ServerUser> {
    const json = await this._core.json<ServerUserJson, ServerUserCreateBody>('/users', { method: 'POST', body: serverUserCreateToWire(options) }, null, 'server');
    await refreshServerUserCaches(this._server);
    return createServerUser(this._server, json);
  }

  async listTeams(): Promise<ServerTeam[]> {
    return this.serverReads.teams().get();
  }

  async getTeam(id: string): Promise<ServerTeam | null>;
  async getTeam(options: { apiKey: string }): Promise<ServerTeam | null>;
  async getTeam(arg: string | { apiKey: string }): Promise<ServerTeam | null> {
    const id = typeof arg === 'string' ? arg : await this.#checkApiKey('team', arg.apiKey);
    if (!id) return null;
    return (await this.listTeams()).find((t) => t.id === id) ?? null;
  }

  async createTeam(options: { displayName: string; profileImageUrl?: string | null; creatorUserId?: string }): Promise<ServerTeam> {
    const json = await this._core.json<ServerTeamJson, ServerTeamCreateBody>('/teams', {
      method: 'POST',
      body: compact({ display_name: options.displayName, profile_image_url: options.profileImageUrl, creator_user_id: options.creatorUserId }),
    }, null, 'server');
    await serverTeamsCache(this._server).refresh([undefined]);
    return this.#team(json);
  }
}

export const StackServerApp = GatehouseServerApp;
/** The SDK's generics (`StackServerApp<HasTokenStore, ProjectId>`), accepted for code written against its types. */
export type StackServerApp<HasTokenStore extends boolean = boolean, ProjectId extends string = string> = GatehouseServerApp & { readonly __hasTokenStore?: HasTokenStore; readonly __projectId?: ProjectId };
