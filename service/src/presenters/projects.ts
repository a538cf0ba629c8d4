// The project as the API shows it: the client view (what an app needs to show its sign-in page), and the admin view
// with the whole configuration (secrets included: admins set them).
import type { AdminProject, ClientProject, ProjectConfigDocument } from '@gatehouse/shared/schemas/projects';
import type { Project } from '../repo/projects';

function enabledOAuthProviders(config: ProjectConfigDocument) {
  return config.oauth_providers.filter((p) => p.enabled).map((p) => ({ id: p.id })).sort((a, b) => a.id.localeCompare(b.id));
}

export function clientProjectView(p: Project): ClientProject {
  const c = p.config;
  return {
    id: p.id,
    display_name: p.displayName,
    config: {
      sign_up_enabled: c.sign_up_enabled,
      credential_enabled: c.credential_enabled,
      magic_link_enabled: c.magic_link_enabled,
      passkey_enabled: c.passkey_enabled,
      client_team_creation_enabled: c.client_team_creation_enabled,
      client_user_deletion_enabled: c.client_user_deletion_enabled,
      allow_user_api_keys: c.allow_user_api_keys,
      allow_team_api_keys: c.allow_team_api_keys,
      enabled_oauth_providers: enabledOAuthProviders(c),
    },
  };
}

/** `userCount`: the project's users now (repo/projects.ts `userCount`). */
export function adminProjectView(p: Project, userCount: number): AdminProject {
  const sortById = <T extends { id: string }>(xs: T[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id));
  return {
    id: p.id,
    display_name: p.displayName,
    description: p.description,
    created_at_millis: p.createdAt.getTime(),
    user_count: userCount,
    is_production_mode: p.isProductionMode,
    config: {
      id: p.configId,
      ...p.config,
      oauth_providers: sortById(p.config.oauth_providers),
      team_creator_default_permissions: sortById(p.config.team_creator_default_permissions),
      team_member_default_permissions: sortById(p.config.team_member_default_permissions),
      user_default_permissions: sortById(p.config.user_default_permissions),
      enabled_oauth_providers: enabledOAuthProviders(p.config),
    },
  };
}
