// A project's security settings (issue 30: minimum password length, session lifetimes, the new-device notice),
// read and changed by its admins (`/internal/security-settings`).
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { ProjectSecuritySettingsUpdate, SecuritySettingsDocument } from '@gatehouse/shared/schemas/security-settings';
import type { Services } from '../services';
import * as projects from '../repo/projects';

/** Saves the named settings (the others stay), under the project row's lock so concurrent saves both land. */
export async function updateSecuritySettings(services: Services, input: { projectId: string; changes: ProjectSecuritySettingsUpdate }): Promise<SecuritySettingsDocument> {
  const { projectId: id, changes } = input;
  const updated = await services.db.transaction(async (tx) => {
    const current = await projects.findForUpdate(tx, id);
    if (!current) throw new KnownErrors.ProjectNotFound(id);
    const next: SecuritySettingsDocument = { ...current.security };
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) (next as Record<string, unknown>)[key] = value;
    return projects.updateSecuritySettings(tx, id, next);
  });
  services.projects.invalidate(id);
  if (!updated) throw new KnownErrors.ProjectNotFound(id);
  return updated.security;
}
