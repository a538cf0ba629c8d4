// Projects: rows, configuration documents, and the read cache used by every authenticated request.
import { and, eq, sql } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import { defaultProjectConfig, type ProjectConfigDocument, type AdminProject, type ClientProject } from '@gatehouse/shared/schemas/projects';

export interface Project {
  id: string;
  displayName: string;
  description: string;
  isProductionMode: boolean;
  configId: string;
  config: ProjectConfigDocument;
  createdAt: Date;
}

function toProject(row: typeof schema.projects.$inferSelect): Project {
  // Older rows may lack newer config keys: defaults fill them in.
  const config = { ...defaultProjectConfig(), ...(row.config as Partial<ProjectConfigDocument>) };
  return { id: row.id, displayName: row.displayName, description: row.description, isProductionMode: row.isProductionMode, configId: row.configId, config, createdAt: row.createdAt };
}

export async function find(db: DB, id: string): Promise<Project | null> {
  const [row] = await db.select().from(schema.projects).where(eq(schema.projects.id, id)).limit(1);
  return row ? toProject(row) : null;
}

export async function create(db: DB, p: { id?: string; displayName: string; description?: string; isProductionMode?: boolean; config: ProjectConfigDocument }): Promise<Project> {
  const [row] = await db.insert(schema.projects).values({
    id: p.id ?? crypto.randomUUID(),
    displayName: p.displayName,
    description: p.description ?? '',
    isProductionMode: p.isProductionMode ?? false,
    config: p.config,
  }).returning();
  return toProject(row);
}

export async function update(db: DB, id: string, patch: { displayName?: string; description?: string; isProductionMode?: boolean; config?: ProjectConfigDocument }): Promise<Project | null> {
  const [row] = await db.update(schema.projects).set(patch).where(eq(schema.projects.id, id)).returning();
  return row ? toProject(row) : null;
}

export async function remove(db: DB, id: string): Promise<boolean> {
  const rows = await db.delete(schema.projects).where(eq(schema.projects.id, id)).returning({ id: schema.projects.id });
  return rows.length > 0;
}

export async function userCount(db: DB, id: string): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(schema.users).where(eq(schema.users.projectId, id));
  return Number(r?.n ?? 0);
}

export async function listByIds(db: DB, ids: string[]): Promise<Project[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(schema.projects).where(sql`${schema.projects.id} = any(${ids})`);
  return rows.map(toProject);
}

export function enabledOAuthProviders(config: ProjectConfigDocument) {
  return config.oauth_providers.filter((p) => p.enabled).map((p) => ({ id: p.id })).sort((a, b) => a.id.localeCompare(b.id));
}

export function clientView(p: Project): ClientProject {
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

export async function adminView(db: DB, p: Project): Promise<AdminProject> {
  const sortById = <T extends { id: string }>(xs: T[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id));
  return {
    id: p.id,
    display_name: p.displayName,
    description: p.description,
    created_at_millis: p.createdAt.getTime(),
    user_count: await userCount(db, p.id),
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

export { and, eq };
