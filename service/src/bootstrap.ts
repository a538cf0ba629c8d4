// Start-up bootstrap: the `internal` project (whose users own and administer the other projects) and its keys.
// Outside production it gets the public development keys of the protocol; in production random keys, printed once.
// A database first used in development and later run in production still holds the public development keys: in
// production they are revoked at start and replaced by random keys (printed once), so they never grant access there.
import { KEY_SET_ID_INTERNAL, DEV_KEYS } from './dev-keys';
import { defaultProjectConfig } from '@gatehouse/shared/schemas/projects';
import { generateApiKey } from '@gatehouse/shared/rules/codes';
import type { Services } from './services';
import type { DB } from './db';
import * as projects from './repo/projects';
import * as apiKeys from './repo/project-keys';

export type InternalKeys = typeof DEV_KEYS;

export interface BootstrapResult {
  /** The internal project was created by this start. */
  created: boolean;
  /** Keys to show once: a new project's keys, or the random keys that replaced the development keys. */
  keys?: InternalKeys;
  /** The development keys were found valid in production, revoked and replaced by `keys`. */
  replacedDevKeys: boolean;
  /** The development keys currently grant access (never in production). */
  devKeysValid: boolean;
}

const randomKeys = (): InternalKeys => ({
  publishable_client_key: generateApiKey('pck'),
  secret_server_key: generateApiKey('ssk'),
  super_secret_admin_key: generateApiKey('sak'),
});

const KEY_KINDS = Object.keys(DEV_KEYS) as (keyof InternalKeys)[];

async function devKeysValid(db: DB): Promise<boolean> {
  for (const kind of KEY_KINDS) if (await apiKeys.findValidKey(db, 'internal', kind, DEV_KEYS[kind])) return true;
  return false;
}

function insertKeySet(db: DB, keys: InternalKeys, id?: string) {
  return apiKeys.insert(db, { id, projectId: 'internal', description: 'Internal API key set', expiresAt: new Date('2099-12-31T23:59:59Z'), keys });
}

export async function bootstrapInternalProject(services: Services): Promise<BootstrapResult> {
  const dev = !services.config.isProduction;
  const created = await services.db.transaction(async (tx) => {
    const config = {
      ...defaultProjectConfig(),
      magic_link_enabled: true,
      client_team_creation_enabled: true,
      team_creator_default_permissions: [],
      team_member_default_permissions: [],
      oauth_providers: dev ? (['github', 'google', 'microsoft', 'spotify'] as const).map((id) => ({ id, type: 'shared' as const, enabled: true })) : [],
    };
    const project = await projects.createIfAbsent(tx, { id: 'internal', displayName: 'Gatehouse Console', description: "Gatehouse's own project: its users own and administer the other projects", config });
    if (!project) return null;
    const keys = dev ? DEV_KEYS : randomKeys();
    await insertKeySet(tx, keys, KEY_SET_ID_INTERNAL);
    return keys;
  });
  if (created) return { created: true, keys: created, replacedDevKeys: false, devKeysValid: dev };
  if (dev) return { created: false, replacedDevKeys: false, devKeysValid: await devKeysValid(services.db) };

  // Production on a database that may hold the development keys. The project row lock makes concurrent starts
  // replace them once.
  const replacement = await services.db.transaction(async (tx) => {
    await projects.findForUpdate(tx, 'internal');
    if (!(await devKeysValid(tx))) return null;
    for (const kind of KEY_KINDS) await apiKeys.revokeSetsHolding(tx, 'internal', kind, DEV_KEYS[kind]);
    const keys = randomKeys();
    await insertKeySet(tx, keys);
    return keys;
  });
  if (!replacement) return { created: false, replacedDevKeys: false, devKeysValid: false };
  services.apiKeys.invalidate('internal');
  return { created: false, keys: replacement, replacedDevKeys: true, devKeysValid: false };
}
