// Projects: rows, configuration documents, and the read cache used by every authenticated request.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import { defaultProjectConfig, type ProjectConfigDocument } from '@gatehouse/shared/schemas/projects';
import { defaultSecuritySettings, type SecuritySettingsDocument } from '@gatehouse/shared/schemas/security-settings';
import { needsReseal, openSecret, sealSecret, type SecretPurpose } from '../db/secrets-at-rest';

export interface Project {
  id: string;
  displayName: string;
  description: string;
  isProductionMode: boolean;
  configId: string;
  config: ProjectConfigDocument;
  /** Gatehouse's own security settings, defaults filled in. */
  security: SecuritySettingsDocument;
  createdAt: Date;
  /**
   * The OpenID provider's claim mappings marked `in_access_token` (oauth_provider_settings): read with the row by `find`,
   * which the project cache serves, so minting an access token at a refresh reads nothing more. Absent elsewhere.
   */
  accessTokenClaims?: AccessTokenClaimMapping[];
}

export interface AccessTokenClaimMapping { claim: string; source: string; scope: string; in_access_token: boolean }

/**
 * The config's secrets (standard OAuth providers' client secrets, the standard SMTP password) are sealed in the
 * row (db/secrets-at-rest.ts) and in clear in the Project the service works with.
 */
function withSecrets(config: ProjectConfigDocument, f: (purpose: SecretPurpose, value: string) => string): ProjectConfigDocument {
  const e = config.email_config;
  return {
    ...config,
    oauth_providers: config.oauth_providers.map((p) => (p.type === 'standard' && p.client_secret ? { ...p, client_secret: f('oauth-client-secret', p.client_secret) } : p)),
    email_config: e.type === 'standard' && e.password ? { ...e, password: f('smtp-password', e.password) } : e,
  };
}
const sealConfig = (c: ProjectConfigDocument) => withSecrets(c, sealSecret);

function toProject(row: typeof schema.projects.$inferSelect): Project {
  // Older rows may lack newer config keys: defaults fill them in.
  const config = withSecrets({ ...defaultProjectConfig(), ...(row.config as Partial<ProjectConfigDocument>) }, openSecret);
  const security = { ...defaultSecuritySettings(), ...(row.securitySettings as Partial<SecuritySettingsDocument>) };
  return { id: row.id, displayName: row.displayName, description: row.description, isProductionMode: row.isProductionMode, configId: row.configId, config, security, createdAt: row.createdAt };
}

export async function find(db: DB, id: string): Promise<Project | null> {
  const p = schema.projects;
  // In the same statement: the provider's mappings that go into the project's own access tokens (none: an empty list).
  const [found] = await db.select({
    row: p,
    accessTokenClaims: sql<AccessTokenClaimMapping[] | null>`(select coalesce(jsonb_agg(m), '[]'::jsonb) from oauth_provider_settings s,
      jsonb_array_elements(s.claims) m where s.project_id = ${p.id} and (m->>'in_access_token')::boolean)`,
  }).from(p).where(eq(p.id, id)).limit(1);
  if (!found) return null;
  // The driver may leave a computed json value as text.
  const claims = typeof found.accessTokenClaims === 'string' ? JSON.parse(found.accessTokenClaims) as AccessTokenClaimMapping[] : found.accessTokenClaims;
  return { ...toProject(found.row), accessTokenClaims: claims ?? [] };
}

export async function create(db: DB, p: { id?: string; displayName: string; description?: string; isProductionMode?: boolean; config: ProjectConfigDocument }): Promise<Project> {
  const [row] = await db.insert(schema.projects).values({
    id: p.id ?? crypto.randomUUID(),
    displayName: p.displayName,
    description: p.description ?? '',
    isProductionMode: p.isProductionMode ?? false,
    config: sealConfig(p.config),
  }).returning();
  // A new project has no provider settings yet, so no claims for its access tokens.
  return { ...toProject(row), accessTokenClaims: [] };
}

/** Creates the project unless one with this id exists (then null): concurrent first starts create it once. */
export async function createIfAbsent(db: DB, p: { id: string; displayName: string; description?: string; config: ProjectConfigDocument }): Promise<Project | null> {
  const [row] = await db.insert(schema.projects).values({
    id: p.id, displayName: p.displayName, description: p.description ?? '', isProductionMode: false, config: sealConfig(p.config),
  }).onConflictDoNothing({ target: schema.projects.id }).returning();
  return row ? { ...toProject(row), accessTokenClaims: [] } : null;
}

export async function update(db: DB, id: string, patch: { displayName?: string; description?: string; isProductionMode?: boolean; config?: ProjectConfigDocument }): Promise<Project | null> {
  const set = patch.config ? { ...patch, config: sealConfig(patch.config) } : patch;
  const [row] = await db.update(schema.projects).set(set).where(eq(schema.projects.id, id)).returning();
  return row ? toProject(row) : null;
}

/** Replaces the project's security settings (the caller merged them under the row's lock). */
export async function updateSecuritySettings(db: DB, id: string, settings: SecuritySettingsDocument): Promise<Project | null> {
  const [row] = await db.update(schema.projects).set({ securitySettings: settings }).where(eq(schema.projects.id, id)).returning();
  return row ? toProject(row) : null;
}

export async function remove(db: DB, id: string): Promise<boolean> {
  const rows = await db.delete(schema.projects).where(eq(schema.projects.id, id)).returning({ id: schema.projects.id });
  return rows.length > 0;
}

/** The project row, locked until the transaction ends (serialises concurrent config updates). */
export async function findForUpdate(tx: DB, id: string): Promise<Project | null> {
  const [row] = await tx.select().from(schema.projects).where(eq(schema.projects.id, id)).for('update');
  return row ? toProject(row) : null;
}

/** What config validation needs to know about the project (see projects/config-validation.ts). */
export async function configFacts(db: DB, id: string) {
  const defs = await db.select({ id: schema.permissionDefinitions.id, scope: schema.permissionDefinitions.scope })
    .from(schema.permissionDefinitions).where(eq(schema.permissionDefinitions.projectId, id));
  const [tpl] = await db.select({ n: sql<number>`count(*)::int` }).from(schema.emailTemplates).where(eq(schema.emailTemplates.projectId, id));
  return {
    teamPermissionIds: new Set(defs.filter((d) => d.scope === 'team').map((d) => d.id)),
    projectPermissionIds: new Set(defs.filter((d) => d.scope === 'project').map((d) => d.id)),
    hasCustomEmailTemplates: Number(tpl?.n ?? 0) > 0,
  };
}

/**
 * Deletes a project (its rows cascade) and removes its id from every internal user's managedProjectIds
 * (ownership lives there). Run inside a transaction.
 */
export async function removeWithOwnership(tx: DB, id: string): Promise<boolean> {
  // The project's users first, in id order, as the activity flush takes them (repo/activity.ts). Deleting the project
  // row first held it while the cascade waited for users a flush had locked, and the flush, writing a daily-activity
  // row, waited for the project row (its foreign key): a deadlock, which PostgreSQL ends by failing the delete (a 500).
  await tx.execute(sql`select id from users where project_id = ${id} order by id for update`);
  if (!(await remove(tx, id))) return false;
  await tx.execute(sql`
    update users set server_metadata = jsonb_set(server_metadata, '{managedProjectIds}',
      coalesce((select jsonb_agg(e order by n) from jsonb_array_elements(server_metadata->'managedProjectIds') with ordinality as a(e, n)
                where e <> to_jsonb(${id}::text)), '[]'::jsonb))
    where project_id = 'internal' and jsonb_typeof(server_metadata->'managedProjectIds') = 'array'
      and jsonb_exists(server_metadata->'managedProjectIds', ${id}::text)`);
  return true;
}

export async function userCount(db: DB, id: string): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(schema.users).where(eq(schema.users.projectId, id));
  return Number(r?.n ?? 0);
}

export async function listByIds(db: DB, ids: string[]): Promise<Project[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(schema.projects).where(inArray(schema.projects.id, ids));
  return rows.map(toProject);
}

/**
 * Adds a project to an internal user's managedProjectIds (ownership lives in the owner's server metadata, as the
 * protocol defines it). The row is locked, so two creations at once both land.
 */
export async function addManagedProject(tx: DB, ownerId: string, projectId: string): Promise<void> {
  const u = schema.users;
  const [row] = await tx.select({ m: u.serverMetadata }).from(u).where(and(eq(u.projectId, 'internal'), eq(u.id, ownerId))).for('update');
  const metadata = (row?.m && typeof row.m === 'object' ? row.m : {}) as Record<string, unknown>;
  const ids = Array.isArray(metadata.managedProjectIds) ? metadata.managedProjectIds.filter((v): v is string => typeof v === 'string') : [];
  await tx.update(u).set({ serverMetadata: { ...metadata, managedProjectIds: [...ids, projectId] } })
    .where(and(eq(u.projectId, 'internal'), eq(u.id, ownerId)));
}

/**
 * Seals again, under the current server secret, every project config secret sealed under another (or not sealed):
 * after a rotation of the server secret (security/reseal.ts). Each project under its row's lock; returns how many
 * projects were rewritten.
 */
export async function resealConfigSecrets(db: DB): Promise<number> {
  const ids = (await db.select({ id: schema.projects.id }).from(schema.projects)).map((r) => r.id);
  let rewritten = 0;
  for (const id of ids) {
    rewritten += await db.transaction(async (tx) => {
      const [row] = await tx.select().from(schema.projects).where(eq(schema.projects.id, id)).for('update');
      if (!row) return 0;
      const stored = { ...defaultProjectConfig(), ...(row.config as Partial<ProjectConfigDocument>) };
      let stale = false;
      withSecrets(stored, (_purpose, value) => { stale ||= needsReseal(value); return value; });
      if (!stale) return 0;
      await tx.update(schema.projects).set({ config: sealConfig(withSecrets(stored, openSecret)) }).where(eq(schema.projects.id, id));
      return 1;
    });
  }
  return rewritten;
}
