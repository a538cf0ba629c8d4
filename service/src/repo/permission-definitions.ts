// Permission definitions (team- and project-scoped, one id namespace per project).
import { TEAM_SYSTEM_PERMISSION_IDS } from '@gatehouse/shared/rules/permissions';
import type { DB } from '../db';
import { schema } from '../db';

/** Every new project gets `admin` (all system permissions; team creators) and `member` (team members). */
export async function createDefaultPermissionDefinitions(db: DB, projectId: string) {
  await db.insert(schema.permissionDefinitions).values([
    { projectId, id: 'admin', scope: 'team', description: 'Default permission for team creators', containedPermissionIds: [...TEAM_SYSTEM_PERMISSION_IDS] },
    { projectId, id: 'member', scope: 'team', description: 'Default permission for team members', containedPermissionIds: ['$invite_members', '$read_members'] },
  ]);
}
