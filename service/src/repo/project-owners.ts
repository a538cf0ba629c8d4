// A project's owners: the internal project's users whose server metadata lists it in `managedProjectIds` (the
// protocol's model of ownership, protocol-resources §10.5; repo/projects.ts adds a creator and removes a deleted
// project). Reading them looks into every internal user's metadata: owners are few, and the internal project is
// the console's own.
import { sql } from 'drizzle-orm';
import type { DB } from '../db';
import { rowsOf } from '../db';

export interface OwnerRow { id: string; display_name: string | null; primary_email: string | null; created_at: Date | string }

const OWNS = (projectId: string) => sql`project_id = 'internal' and jsonb_typeof(server_metadata->'managedProjectIds') = 'array'
  and jsonb_exists(server_metadata->'managedProjectIds', ${projectId}::text)`;

export async function listOwners(db: DB, projectId: string): Promise<OwnerRow[]> {
  return rowsOf<OwnerRow>(await db.execute(sql`select id, display_name, primary_email, created_at from users where ${OWNS(projectId)} order by created_at, id`));
}

/**
 * Takes the project off the user's list, unless they are not an owner or the last one. Every owner's row is locked
 * first (in id order): two owners removing each other at once cannot both succeed and leave the project with none.
 * Run inside a transaction.
 */
export async function removeOwner(tx: DB, projectId: string, userId: string): Promise<'removed' | 'not-owner' | 'last'> {
  const owners = rowsOf<{ id: string }>(await tx.execute(sql`select id from users where ${OWNS(projectId)} order by id for update`));
  if (!owners.some((o) => o.id === userId)) return 'not-owner';
  if (owners.length === 1) return 'last';
  await tx.execute(sql`
    update users set server_metadata = jsonb_set(server_metadata, '{managedProjectIds}',
      coalesce((select jsonb_agg(e order by n) from jsonb_array_elements(server_metadata->'managedProjectIds') with ordinality as a(e, n)
                where e <> to_jsonb(${projectId}::text)), '[]'::jsonb))
    where project_id = 'internal' and id = ${userId}`);
  return 'removed';
}

/**
 * Adds the project to an internal user's list once: their row is locked, so two accepts at once (two invitations
 * to the same project) add it once. 'already' when they own it. Run inside a transaction.
 */
export async function addOwner(tx: DB, projectId: string, userId: string): Promise<'added' | 'already' | 'no-user'> {
  const [row] = rowsOf<{ owns: boolean }>(await tx.execute(sql`select coalesce(${OWNS(projectId)}, false) as owns from users
    where project_id = 'internal' and id = ${userId} for update`));
  if (!row) return 'no-user';
  if (row.owns) return 'already';
  await tx.execute(sql`
    update users set server_metadata = jsonb_set(case when jsonb_typeof(server_metadata) = 'object' then server_metadata else '{}'::jsonb end, '{managedProjectIds}',
      case when jsonb_typeof(server_metadata->'managedProjectIds') = 'array' then server_metadata->'managedProjectIds' else '[]'::jsonb end
        || jsonb_build_array(${projectId}::text))
    where project_id = 'internal' and id = ${userId}`);
  return 'added';
}
