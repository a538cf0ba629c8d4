// Permission definitions (team- and project-scoped, one id namespace per project). Containment is stored as each
// definition's `contained_permission_ids`; grants reference definitions by id, so a rename or delete rewrites
// the contained lists, the grants and the project's default-permission lists in the caller's transaction.
import { and, eq, sql } from 'drizzle-orm';
import { TEAM_SYSTEM_PERMISSION_IDS } from '@gatehouse/shared/rules/permissions';
import type { DB } from '../db';
import { schema } from '../db';

const d = schema.permissionDefinitions;
const tg = schema.teamPermissionGrants;
const pg = schema.projectPermissionGrants;

/** Every new project gets `admin` (all system permissions; team creators) and `member` (team members). */
export async function createDefaultPermissionDefinitions(db: DB, projectId: string) {
  await db.insert(schema.permissionDefinitions).values([
    { projectId, id: 'admin', scope: 'team', description: 'Default permission for team creators', containedPermissionIds: [...TEAM_SYSTEM_PERMISSION_IDS] },
    { projectId, id: 'member', scope: 'team', description: 'Default permission for team members', containedPermissionIds: ['$invite_members', '$read_members'] },
  ]);
}

export type Scope = 'team' | 'project';
export interface DefinitionRow { id: string; scope: string; description: string | null; containedPermissionIds: string[] }

export async function listDefinitions(db: DB, projectId: string, scope: Scope): Promise<DefinitionRow[]> {
  return db.select({ id: d.id, scope: d.scope, description: d.description, containedPermissionIds: d.containedPermissionIds })
    .from(d).where(and(eq(d.projectId, projectId), eq(d.scope, scope)));
}

/** id → contained ids of the scope's definitions (one query); system permissions are leaves. */
export async function definitionGraph(db: DB, projectId: string, scope: Scope): Promise<Map<string, string[]>> {
  return new Map((await listDefinitions(db, projectId, scope)).map((r) => [r.id, r.containedPermissionIds]));
}

/** A definition by id in any scope (ids are unique across scopes). `lock` takes a row lock until commit. */
export async function findDefinition(db: DB, projectId: string, id: string, lock?: 'share' | 'update'): Promise<DefinitionRow | null> {
  const q = db.select({ id: d.id, scope: d.scope, description: d.description, containedPermissionIds: d.containedPermissionIds })
    .from(d).where(and(eq(d.projectId, projectId), eq(d.id, id))).limit(1);
  const [row] = lock ? await q.for(lock) : await q;
  return row ?? null;
}

/**
 * Serialises definition changes of one project (checking for cycles, then writing, must not interleave with
 * another change) by locking the project row until the transaction ends. `no key update`, not `update`: rows
 * inserted elsewhere take a key-share lock on their project (foreign key), which this must not block.
 */
export async function lockDefinitions(tx: DB, projectId: string): Promise<void> {
  await tx.select({ id: schema.projects.id }).from(schema.projects).where(eq(schema.projects.id, projectId)).for('no key update');
}

export async function insertDefinition(tx: DB, projectId: string, scope: Scope, v: { id: string; description: string | null; contained: string[] }) {
  await tx.insert(d).values({ projectId, id: v.id, scope, description: v.description, containedPermissionIds: v.contained });
}

/** Updates a definition; a new id is carried into other definitions' lists, grants and default lists. */
export async function updateDefinition(tx: DB, projectId: string, scope: Scope, id: string, v: { newId?: string; description?: string | null; contained?: string[] }) {
  const set: Partial<typeof d.$inferInsert> = {};
  if (v.newId !== undefined) set.id = v.newId;
  if (v.description !== undefined) set.description = v.description;
  if (v.contained !== undefined) set.containedPermissionIds = v.contained;
  if (Object.keys(set).length) await tx.update(d).set(set).where(and(eq(d.projectId, projectId), eq(d.id, id)));
  if (v.newId === undefined || v.newId === id) return;
  const newId = v.newId;
  await tx.update(d).set({ containedPermissionIds: sql`array_replace(${d.containedPermissionIds}, ${id}, ${newId})` })
    .where(and(eq(d.projectId, projectId), sql`${id} = any(${d.containedPermissionIds})`));
  if (scope === 'team') await tx.update(tg).set({ permissionId: newId }).where(and(eq(tg.projectId, projectId), eq(tg.permissionId, id)));
  else await tx.update(pg).set({ permissionId: newId }).where(and(eq(pg.projectId, projectId), eq(pg.permissionId, id)));
  await rewriteDefaultPermissions(tx, projectId, scope, id, newId);
}

/** Deletes a definition, its grants and every reference to it. Returns false when there was none. */
export async function deleteDefinition(tx: DB, projectId: string, scope: Scope, id: string): Promise<boolean> {
  const rows = await tx.delete(d).where(and(eq(d.projectId, projectId), eq(d.scope, scope), eq(d.id, id))).returning({ id: d.id });
  if (rows.length === 0) return false;
  await tx.update(d).set({ containedPermissionIds: sql`array_remove(${d.containedPermissionIds}, ${id})` })
    .where(and(eq(d.projectId, projectId), sql`${id} = any(${d.containedPermissionIds})`));
  if (scope === 'team') await tx.delete(tg).where(and(eq(tg.projectId, projectId), eq(tg.permissionId, id)));
  else await tx.delete(pg).where(and(eq(pg.projectId, projectId), eq(pg.permissionId, id)));
  await rewriteDefaultPermissions(tx, projectId, scope, id, null);
  return true;
}

const DEFAULT_LISTS: Record<Scope, string[]> = {
  team: ['team_creator_default_permissions', 'team_member_default_permissions'],
  project: ['user_default_permissions'],
};

/** Renames (or, with `to` null, removes) a permission in the project's default-permission lists. */
async function rewriteDefaultPermissions(tx: DB, projectId: string, scope: Scope, from: string, to: string | null) {
  const [row] = await tx.select({ config: schema.projects.config }).from(schema.projects).where(eq(schema.projects.id, projectId)).for('no key update');
  if (!row) return;
  const config = { ...(row.config as Record<string, unknown>) };
  let changed = false;
  for (const key of DEFAULT_LISTS[scope]) {
    const list = config[key];
    if (!Array.isArray(list) || !list.some((p) => p?.id === from)) continue;
    const next = to === null ? list.filter((p) => p?.id !== from) : list.map((p) => (p?.id === from ? { ...p, id: to } : p));
    config[key] = next.filter((p, i) => next.findIndex((q) => q?.id === p?.id) === i);
    changed = true;
  }
  if (changed) await tx.update(schema.projects).set({ config }).where(eq(schema.projects.id, projectId));
}
