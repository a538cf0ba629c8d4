// The long-lived parts of a running service, created once and handed to every route.
import { eq } from 'drizzle-orm';
import type { Config } from './config';
import { type Database, type DB, schema } from './db';
import { SigningKeys } from './tokens/keys';
import { AccessTokens } from './tokens/access-tokens';
import { Passwords } from './auth/passwords';
import { ActivityRecorder } from './auth/activity';
import { TtlCache } from './repo/cache';
import * as projects from './repo/projects';
import * as apiKeys from './repo/api-keys';

export interface Services {
  config: Config;
  db: DB;
  database: Database;
  keys: SigningKeys;
  tokens: AccessTokens;
  passwords: Passwords;
  activity: ActivityRecorder;
  /** Server secret (token signing and encryption keys derive from it). */
  secret: string;
  projects: ProjectCache;
  apiKeys: ApiKeyCache;
  /** Hooks run when the service stops (workers register theirs). */
  onStop: (() => Promise<void> | void)[];
}

/** Cached project lookups; `invalidate` after any change. */
export class ProjectCache {
  private cache = new TtlCache<projects.Project | null>(5_000);
  constructor(private readonly db: DB) {}
  async get(id: string): Promise<projects.Project | null> {
    const hit = this.cache.get(id);
    if (hit !== undefined) return hit;
    const p = await projects.find(this.db, id);
    this.cache.set(id, p, p ? 5_000 : 1_000);
    return p;
  }
  invalidate(id?: string) { this.cache.invalidate(id); }
}

/** Cached API key validity; entries never outlive the key's expiry, and revocation invalidates at once. */
export class ApiKeyCache {
  private cache = new TtlCache<boolean>(5_000);
  constructor(private readonly db: DB) {}
  async isValid(projectId: string, kind: apiKeys.KeyKind, key: string): Promise<boolean> {
    const cacheKey = `${projectId}\u0000${kind}\u0000${key}`;
    const hit = this.cache.get(cacheKey);
    if (hit !== undefined) return hit;
    const found = await apiKeys.findValidKey(this.db, projectId, kind, key);
    const ttl = found ? Math.min(5_000, found.expiresAt.getTime() - Date.now()) : 1_000;
    this.cache.set(cacheKey, !!found, ttl);
    return !!found;
  }
  invalidate(projectId?: string) { this.cache.invalidate(projectId === undefined ? undefined : `${projectId}\u0000`); }
}

async function loadOrCreateSecret(db: DB, configured?: string): Promise<string> {
  if (configured) return configured;
  const [row] = await db.select().from(schema.serviceSecrets).where(eq(schema.serviceSecrets.id, 'server-secret'));
  if (row) return row.value;
  const value = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  await db.insert(schema.serviceSecrets).values({ id: 'server-secret', value }).onConflictDoNothing();
  const [stored] = await db.select().from(schema.serviceSecrets).where(eq(schema.serviceSecrets.id, 'server-secret'));
  return stored.value;
}

export async function createServices(config: Config, database: Database): Promise<Services> {
  const db = database.db;
  const secret = await loadOrCreateSecret(db, config.serverSecret);
  const keys = new SigningKeys(secret);
  const activity = new ActivityRecorder(db);
  activity.start();
  const services: Services = {
    config, db, database, keys, secret,
    tokens: new AccessTokens(keys, config.accessTokenLifetimeSeconds),
    passwords: new Passwords(config.passwordHashConcurrency),
    activity,
    projects: new ProjectCache(db),
    apiKeys: new ApiKeyCache(db),
    onStop: [() => activity.stop()],
  };
  return services;
}
