// First-start bootstrap: the `internal` project (whose users own and administer the other projects) and its keys.
import { KEY_SET_ID_INTERNAL, DEV_KEYS } from './dev-keys';
import { defaultProjectConfig } from '@gatehouse/shared/schemas/projects';
import { generateApiKey } from '@gatehouse/shared/rules/codes';
import type { Services } from './services';
import * as projects from './repo/projects';
import * as apiKeys from './repo/api-keys';

export interface BootstrapResult { created: boolean; keys?: typeof DEV_KEYS }

export async function bootstrapInternalProject(services: Services): Promise<BootstrapResult> {
  if (await projects.find(services.db, 'internal')) return { created: false };
  const dev = !services.config.isProduction;
  const keys = dev ? DEV_KEYS : {
    publishable_client_key: generateApiKey('pck'),
    secret_server_key: generateApiKey('ssk'),
    super_secret_admin_key: generateApiKey('sak'),
  };
  await services.db.transaction(async (tx) => {
    const config = {
      ...defaultProjectConfig(),
      magic_link_enabled: true,
      client_team_creation_enabled: true,
      team_creator_default_permissions: [],
      team_member_default_permissions: [],
      oauth_providers: dev ? (['github', 'google', 'microsoft', 'spotify'] as const).map((id) => ({ id, type: 'shared' as const, enabled: true })) : [],
    };
    await projects.create(tx, { id: 'internal', displayName: 'Gatehouse Console', description: "Gatehouse's own project: its users own and administer the other projects", config });
    await apiKeys.insert(tx, {
      id: KEY_SET_ID_INTERNAL, projectId: 'internal', description: 'Internal API key set',
      expiresAt: new Date('2099-12-31T23:59:59Z'), keys,
    });
  });
  return { created: true, keys };
}
