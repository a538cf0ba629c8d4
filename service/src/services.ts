// The long-lived parts of a running service, created once and handed to every route.
import type { Config } from './config';
import type { Database, DB } from './db';
import * as serviceSecrets from './repo/service-secrets';
import { SigningKeys } from './tokens/keys';
import { usePreviousSecrets } from './tokens/encryption';
import { useSecretsAtRestKeys } from './db/secrets-at-rest';
import { AccessTokens } from './tokens/access-tokens';
import { Passwords } from './auth/passwords';
import { ActivityRecorder } from './auth/activity';
import { AuditTrail } from './observability/audit-trail';
import { noticeNewDeviceSignIns } from './auth/security-notices';
import { RevokedSessions } from './auth/revoked-sessions';
import { setStrictTransportSecurity } from './http/respond';
import { TtlCache } from './repo/cache';
import * as projects from './repo/projects';
import * as apiKeys from './repo/project-keys';
import { Events } from './events';
import { Wakers } from './worker-loop';
import { IssuerDiscovery } from './oauth/endpoints';

export interface Services {
  config: Config;
  /** The database (PGlite or PostgreSQL through Drizzle). Routes reach it as `ctx.services.db`. */
  db: DB;
  keys: SigningKeys;
  tokens: AccessTokens;
  passwords: Passwords;
  activity: ActivityRecorder;
  /** The queued audit entries of the project's users (observability/audit-trail.ts). */
  auditTrail: AuditTrail;
  /** Server secret (encryption keys derive from it, and it seals the signing keys: tokens/keys.ts). */
  secret: string;
  projects: ProjectCache;
  apiKeys: ApiKeyCache;
  /** Sessions ended before their time: their access tokens are refused (auth/revoked-sessions.ts). */
  revokedSessions: RevokedSessions;
  /** Project events for webhooks (events.ts): written as webhook deliveries in the caller's transaction. */
  events: Events;
  /** The webhook delivery workers of this process (webhooks/worker.ts), woken by events and retry-now. */
  webhookWorkers: Wakers;
  /** The email outbox workers of this process (email/outbox.ts), woken when mail is queued. */
  emailWorkers: Wakers;
  /** OpenID issuers standing in for OAuth providers, discovered once per few minutes (oauth/endpoints.ts). */
  oauthDiscovery: IssuerDiscovery;
  /** Hooks run when the service stops (workers register theirs). */
  onStop: (() => Promise<void> | void)[];
}

/** Publishes a cache invalidation to the other service instances (see `listenForInvalidations`). */
type Broadcast = (payload: string) => void;
export const INVALIDATE_CHANNEL = 'gatehouse_invalidate';

/** Cached project lookups; `invalidate` after any change (this instance at once, the others through NOTIFY). */
export class ProjectCache {
  private cache = new TtlCache<projects.Project | null>(5_000);
  constructor(private readonly db: DB, private readonly broadcast?: Broadcast) {}
  get(id: string): Promise<projects.Project | null> {
    return this.cache.getOrLoad(id, () => projects.find(this.db, id), (p) => (p ? 5_000 : 1_000));
  }
  invalidate(id?: string) { this.invalidateLocal(id); this.broadcast?.(`project:${id ?? ''}`); }
  invalidateLocal(id?: string) { this.cache.invalidate(id); }
}

/** Cached API key validity; entries never outlive the key's expiry, and revocation invalidates at once. */
export class ApiKeyCache {
  private cache = new TtlCache<boolean>(5_000);
  constructor(private readonly db: DB, private readonly broadcast?: Broadcast) {}
  async isValid(projectId: string, kind: apiKeys.KeyKind, key: string): Promise<boolean> {
    const cacheKey = `${projectId}\u0000${kind}\u0000${key}`;
    let expiresAt = 0;
    return this.cache.getOrLoad(cacheKey, async () => {
      const found = await apiKeys.findValidKey(this.db, projectId, kind, key);
      expiresAt = found ? found.expiresAt.getTime() : 0;
      return !!found;
    }, (valid) => (valid ? Math.min(5_000, expiresAt - Date.now()) : 1_000));
  }
  invalidate(projectId?: string) { this.invalidateLocal(projectId); this.broadcast?.(`api-keys:${projectId ?? ''}`); }
  invalidateLocal(projectId?: string) { this.cache.invalidate(projectId === undefined ? undefined : `${projectId}\u0000`); }
}

/**
 * Applies other instances' invalidations (payload `project:<id>` / `api-keys:<id>`, empty id = everything;
 * `signing-keys:` after a rotation or retirement: the key records are read again).
 * After a (re)connection of the listening connection, notifications may have been missed: everything is dropped;
 * while it is down, the user rows kept by change notices are not served (db/change-notices.ts).
 */
async function listenForInvalidations(database: Database, caches: { projects: ProjectCache; apiKeys: ApiKeyCache; revokedSessions: RevokedSessions; keys: SigningKeys }) {
  if (!database.listen) return undefined;
  const notices = database.changeNotices;
  const apply = (payload: string) => {
    // The triggers' change notices of kept user rows (db/change-notices.ts).
    if (notices?.received(payload)) return;
    const [kind, ...rest] = payload.split(':');
    const id = rest.join(':') || undefined;
    if (kind === 'project') caches.projects.invalidateLocal(id);
    else if (kind === 'api-keys') caches.apiKeys.invalidateLocal(id);
    else if (kind === 'session-revoked' && id) caches.revokedSessions.add(id);
    else if (kind === 'signing-keys') reloadKeys();
  };
  const reloadKeys = () => { caches.keys.reload().catch((err) => console.error('Failed to reload the signing keys:', err)); };
  const clearAll = () => {
    notices?.connected();
    caches.projects.invalidateLocal(); caches.apiKeys.invalidateLocal(); reloadKeys();
    caches.revokedSessions.sync(true).catch((err) => console.error('Failed to reload revoked sessions:', err));
  };
  return database.listen(INVALIDATE_CHANNEL, apply, clearAll, () => notices?.lost());
}

async function loadOrCreateSecret(db: DB, configured?: string): Promise<string> {
  if (configured) return configured;
  return serviceSecrets.loadOrCreate(db, 'server-secret', () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url'));
}

export async function createServices(config: Config, database: Database): Promise<Services> {
  const db = database.db;
  const secret = await loadOrCreateSecret(db, config.serverSecret);
  // A database first run without GATEHOUSE_SERVER_SECRET holds a generated one, which sealed its secrets: it still
  // opens them once a secret is configured (e.g. on the move to production); their next write seals them anew.
  const stored = config.serverSecret ? await serviceSecrets.find(db, 'server-secret') : undefined;
  // During a rotation (GATEHOUSE_SERVER_SECRET_PREVIOUS) the previous secrets still open, decrypt and verify what
  // they made; everything new uses the current one.
  const previous = config.serverSecretPrevious;
  useSecretsAtRestKeys(secret, [...previous, ...(stored ? [stored] : [])]);
  usePreviousSecrets(previous);
  const notify = database.notify;
  const broadcast: Broadcast | undefined = notify && ((payload) => {
    notify(INVALIDATE_CHANNEL, payload).catch((err) => console.error('Failed to publish a cache invalidation:', err));
  });
  // The signing key records (tokens/keys.ts): made on a new database's first start, then held in memory.
  const keys = new SigningKeys(db, secret, previous, broadcast && (() => broadcast('signing-keys:')));
  await keys.start();
  const activity = new ActivityRecorder(db);
  activity.start();
  const webhookWorkers = new Wakers();
  const projectCache = new ProjectCache(db, broadcast);
  const services: Services = {
    config, db, keys, secret,
    tokens: new AccessTokens(keys, config.accessTokenLifetimeSeconds, async (id) => (await projectCache.get(id)) !== null),
    passwords: new Passwords(config.passwordHashConcurrency),
    activity,
    auditTrail: new AuditTrail(db),
    projects: projectCache,
    apiKeys: new ApiKeyCache(db, broadcast),
    revokedSessions: new RevokedSessions(db, config.accessTokenLifetimeSeconds),
    events: new Events(webhookWorkers),
    webhookWorkers,
    oauthDiscovery: new IssuerDiscovery(),
    emailWorkers: new Wakers(),
    onStop: [() => activity.stop()],
  };
  activity.onNewDevices = (signIns) => noticeNewDeviceSignIns(services, signIns);
  await services.revokedSessions.start();
  setStrictTransportSecurity(config.publicUrl);
  services.onStop.push(() => services.revokedSessions.stop(), () => services.auditTrail.stop());
  const listener = await listenForInvalidations(database, services);
  if (listener) services.onStop.push(() => listener.unlisten().catch(() => {}));
  return services;
}
