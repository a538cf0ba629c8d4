// A project's owners (issue 26): listed, and one removed, never the last. Ownership is the protocol's: the project's
// id in an internal user's `managedProjectIds` (repo/project-owners.ts).
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as owners from '../repo/project-owners';

export async function listProjectOwners(services: Pick<Services, 'db'>, input: { projectId: string }): Promise<owners.OwnerRow[]> {
  return owners.listOwners(services.db, input.projectId);
}

export async function removeProjectOwner(services: Pick<Services, 'db'>, input: { projectId: string; userId: string }): Promise<void> {
  const outcome = await services.db.transaction((tx) => owners.removeOwner(tx, input.projectId, input.userId));
  if (outcome === 'not-owner') throw new KnownErrors.ProjectOwnerNotFound(input.userId);
  if (outcome === 'last') throw new KnownErrors.LastProjectOwner();
}
