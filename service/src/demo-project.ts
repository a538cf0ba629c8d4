// Development only: the demo project, which the account kit's demo at `/` signs people into (issue 25). The
// internal project stays the console owners' own; the demo shows every feature a newcomer may try: every sign-in
// method, passkeys, teams (client team creation with the default permissions every new project gets), deleting
// one's account, and the development OpenID provider behind every OAuth button. Created at the first start outside
// production; in production nothing of it is created (and its key is not accepted: see http/front-ends.ts).
import { defaultProjectConfig } from '@gatehouse/shared/schemas/projects';
import type { Services } from './services';
import * as projects from './repo/projects';
import * as apiKeys from './repo/project-keys';
import { createDefaultPermissionDefinitions } from './repo/permission-definitions';
import { DEMO_DEV_KEYS, DEMO_PROJECT_ID, KEY_SET_ID_DEMO } from './dev-keys';

const OAUTH_PROVIDERS = ['github', 'google', 'microsoft', 'spotify'] as const;

/** Creates the demo project when absent (development only). True when this start created it. */
export async function bootstrapDemoProject(services: Services): Promise<boolean> {
  if (services.config.isProduction) {
    // A database first used in development: its demo key is public, so it grants nothing in production.
    const revoked = await apiKeys.revokeSetsHolding(services.db, DEMO_PROJECT_ID, 'publishable_client_key', DEMO_DEV_KEYS.publishable_client_key);
    if (revoked) services.apiKeys.invalidate(DEMO_PROJECT_ID);
    return false;
  }
  if (!services.config.demoProject) return false;
  return services.db.transaction(async (tx) => {
    const config = {
      ...defaultProjectConfig(),
      credential_enabled: true,
      magic_link_enabled: true,
      passkey_enabled: true,
      client_team_creation_enabled: true,
      client_user_deletion_enabled: true,
      allow_user_api_keys: true,
      allow_team_api_keys: true,
      // Shared keys: the development OpenID provider stands in for each (oauth/dev-issuer.ts).
      oauth_providers: OAUTH_PROVIDERS.map((id) => ({ id, type: 'shared' as const, enabled: true })),
    };
    const project = await projects.createIfAbsent(tx, {
      id: DEMO_PROJECT_ID,
      displayName: 'Gatehouse demo',
      description: 'The demo app at / signs in here (development only): every sign-in method, passkeys, teams and account deletion on',
      config,
    });
    if (!project) return false;
    // What every new project gets: `admin` for team creators, `member` for members (the config's defaults name them).
    await createDefaultPermissionDefinitions(tx, DEMO_PROJECT_ID);
    await apiKeys.insert(tx, { id: KEY_SET_ID_DEMO, projectId: DEMO_PROJECT_ID, description: 'Demo app key (development only)', expiresAt: new Date('2099-12-31T23:59:59Z'), keys: DEMO_DEV_KEYS });
    return true;
  });
}

/** Is the demo's development key valid (the demo project exists, outside production)? */
export async function demoKeyValid(services: Services): Promise<boolean> {
  if (!services.config.demoProject) return false;
  return !!(await apiKeys.findValidKey(services.db, DEMO_PROJECT_ID, 'publishable_client_key', DEMO_DEV_KEYS.publishable_client_key));
}
