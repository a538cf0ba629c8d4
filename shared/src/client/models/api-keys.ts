// User and team API keys (client-library §1.7.9).
import { compact, optionalDate, type ClientContext, type ServerContext } from './common.ts';
import type { InternalSession } from '../session.ts';
import type { ClientCore } from '../core.ts';
import type {
  ApiKeyClientUpdateBody,
  ApiKeyServerUpdateBody,
  ListOf,
  TeamApiKeyCreateBody,
  TeamApiKeyFirstViewJson,
  TeamApiKeyJson,
  UserApiKeyCreateBody,
  UserApiKeyFirstViewJson,
  UserApiKeyJson,
} from '../wire.ts';

/** A key as the service answers it (shared/src/schemas/user-api-keys.ts): the full value right after creation only. */
export type ApiKeyJson = UserApiKeyJson | UserApiKeyFirstViewJson | TeamApiKeyJson | TeamApiKeyFirstViewJson;

export type ApiKeyUpdateOptions = { description?: string; expiresAt?: Date | null; revoked?: boolean };

interface ApiKeyBase {
  readonly id: string;
  readonly description: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | undefined;
  readonly manuallyRevokedAt: Date | null;
  readonly isPublic: boolean;
  whyInvalid(): 'manually-revoked' | 'expired' | null;
  isValid(): boolean;
  update(options: ApiKeyUpdateOptions): Promise<void>;
  revoke(): Promise<void>;
}

export type ApiKey<Type extends 'user' | 'team' = 'user' | 'team', FirstView extends boolean = false> = ApiKeyBase &
  (Type extends 'user' ? { readonly type: 'user'; readonly userId: string } : { readonly type: 'team'; readonly teamId: string }) & {
    readonly value: FirstView extends true ? string : { lastFour: string };
  };
export type UserApiKey = ApiKey<'user'>;
export type UserApiKeyFirstView = ApiKey<'user', true>;
export type TeamApiKey = ApiKey<'team'>;
export type TeamApiKeyFirstView = ApiKey<'team', true>;

export type ApiKeyCreateOptions = { description: string; expiresAt: Date | null; isPublic?: boolean };

/** Where a key list lives and how it is reached: client (session, `me`) or server (explicit id). */
export type ApiKeyOwner =
  | { kind: 'user'; ctx: ClientContext }
  | { kind: 'team'; teamId: string; ctx: ClientContext }
  | { kind: 'user'; userId: string; server: ServerContext }
  | { kind: 'team'; teamId: string; server: ServerContext };

function ownerQuery(owner: ApiKeyOwner): string {
  if (owner.kind === 'team') return `team_id=${encodeURIComponent(owner.teamId)}`;
  return 'server' in owner ? `user_id=${encodeURIComponent(owner.userId)}` : 'user_id=me';
}

function ownerAccess(owner: ApiKeyOwner): { core: ClientCore; session: InternalSession | null; access: 'client' | 'server' | 'admin' } {
  return 'server' in owner
    ? { core: owner.server.core, session: null, access: owner.server.access }
    : { core: owner.ctx.core, session: owner.ctx.session, access: 'client' };
}

export function apiKeysCache(owner: ApiKeyOwner) {
  const { core, access } = ownerAccess(owner);
  const base = `/${owner.kind}-api-keys`;
  return core.cache(`${owner.kind}-api-keys:${access}`, ([session, q]: readonly [InternalSession | null, string]) =>
    core.json<ListOf<UserApiKeyJson | TeamApiKeyJson>>(`${base}?${q}`, {}, session, access).then((j) => j.items),
  );
}

function cacheKey(owner: ApiKeyOwner) {
  return [ownerAccess(owner).session, ownerQuery(owner)] as const;
}

export function listApiKeysRead(owner: ApiKeyOwner) {
  return apiKeysCache(owner).handle(cacheKey(owner), 'api-keys', (list: ApiKeyJson[]) => list.map((j) => createApiKey(owner, j)));
}

export async function createApiKeyFor(owner: ApiKeyOwner, options: ApiKeyCreateOptions): Promise<ApiKey<'user' | 'team', true>> {
  const { core, session, access } = ownerAccess(owner);
  const fields = {
    description: options.description,
    expires_at_millis: options.expiresAt ? options.expiresAt.getTime() : null,
    is_public: options.isPublic ?? false,
  };
  const path = `/${owner.kind}-api-keys`;
  const json =
    owner.kind === 'team'
      ? await core.json<TeamApiKeyFirstViewJson, TeamApiKeyCreateBody>(path, { method: 'POST', body: { ...fields, team_id: owner.teamId } }, session, access)
      : await core.json<UserApiKeyFirstViewJson, UserApiKeyCreateBody>(path, {
          method: 'POST',
          body: { ...fields, user_id: 'server' in owner ? owner.userId : 'me' },
        }, session, access);
  await apiKeysCache(owner).refresh(cacheKey(owner));
  return createApiKey(owner, json) as ApiKey<'user' | 'team', true>;
}

export function createApiKey(owner: ApiKeyOwner, json: ApiKeyJson): ApiKey<'user' | 'team', boolean> {
  const { core, session, access } = ownerAccess(owner);
  const expiresAt = optionalDate(json.expires_at_millis);
  const manuallyRevokedAt = json.manually_revoked_at_millis ? new Date(json.manually_revoked_at_millis) : null;
  const whyInvalid = () => (manuallyRevokedAt ? 'manually-revoked' : expiresAt && expiresAt.getTime() < Date.now() ? 'expired' : null) as
    | 'manually-revoked'
    | 'expired'
    | null;
  const update = async (options: ApiKeyUpdateOptions) => {
    // Clients may only change `description` and `revoked` (client-library §8 #11); servers may also move the expiry.
    const isServer = 'server' in owner;
    // Revoking is one way: `revoked: false` goes out as given and the service refuses it, as it did the SDK's.
    const revoked = options.revoked as true | undefined;
    await core.json<unknown, ApiKeyClientUpdateBody | ApiKeyServerUpdateBody>(`/${owner.kind}-api-keys/${json.id}?${ownerQuery(owner)}`, {
      method: 'PATCH',
      body: compact({
        description: options.description,
        expires_at_millis: !isServer || options.expiresAt === undefined ? undefined : options.expiresAt?.getTime() ?? null,
        revoked,
      }),
    }, session, access);
    await apiKeysCache(owner).refresh(cacheKey(owner));
  };
  return Object.freeze({
    id: json.id,
    description: json.description,
    createdAt: new Date(json.created_at_millis),
    expiresAt,
    manuallyRevokedAt,
    isPublic: json.is_public ?? false,
    ...(json.type === 'team' ? { type: 'team' as const, teamId: json.team_id } : { type: 'user' as const, userId: json.user_id }),
    value: typeof json.value === 'string' ? json.value : { lastFour: json.value.last_four },
    whyInvalid,
    isValid: () => whyInvalid() === null,
    update,
    revoke: () => update({ revoked: true }),
  }) as ApiKey<'user' | 'team', boolean>;
}
