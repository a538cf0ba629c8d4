// The current project as admins manage it (protocol-resources §10): reading it, saving its settings and
// configuration (PATCH /projects/current), deleting it.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { ProjectUpdate } from '@gatehouse/shared/schemas/projects';
import type { Services } from '../services';
import * as projects from '../repo/projects';
import type { PublicJwk } from '@gatehouse/shared/schemas/projects';
import { InputProblems } from '../input-problems';
import { applyConfigUpdate, configSchemaProblems } from './config-validation';

/** A project with what its admin view shows besides its row: the number of its users. */
export interface ProjectWithUserCount { project: projects.Project; userCount: number }

export async function withUserCount(services: Pick<Services, 'db'>, project: projects.Project): Promise<ProjectWithUserCount> {
  return { project, userCount: await projects.userCount(services.db, project.id) };
}

/**
 * Saves the named fields (the others stay as they are). The configuration's schema is checked first (its problems
 * are the request's SCHEMA_ERROR); then it is merged into the stored one and checked against the project
 * (config-validation.ts `applyConfigUpdate`) under the project row's lock, so concurrent saves apply one after the other.
 */
export async function updateProject(services: Services, input: { projectId: string; changes: ProjectUpdate }): Promise<ProjectWithUserCount> {
  const { projectId: id, changes: body } = input;
  const problems = body.config ? configSchemaProblems(body.config) : [];
  if (problems.length) throw new InputProblems(problems);
  const updated = await services.db.transaction(async (tx) => {
    const current = await projects.findForUpdate(tx, id);
    if (!current) throw new KnownErrors.ProjectNotFound(id);
    const config = body.config ? applyConfigUpdate(current.config, body.config, await projects.configFacts(tx, id)) : undefined;
    // An omitted description stays as it is (the original reset it to "").
    const description = body.description === null ? '' : body.description;
    const patch = { displayName: body.display_name, description, isProductionMode: body.is_production_mode, config };
    if (Object.values(patch).every((v) => v === undefined)) return current;
    return projects.update(tx, id, patch);
  });
  services.projects.invalidate(id);
  if (!updated) throw new KnownErrors.ProjectNotFound(id);
  return withUserCount(services, updated);
}

/** Deletes the project and everything in it (never the internal project, where every admin access is rooted). */
export async function deleteProject(services: Services, input: { projectId: string }): Promise<void> {
  const id = input.projectId;
  if (id === 'internal') throw new StatusError(400, 'The internal project cannot be deleted.');
  const deleted = await services.db.transaction((tx) => projects.removeWithOwnership(tx, id));
  services.projects.invalidate(id);
  services.apiKeys.invalidate(id);
  if (!deleted) throw new KnownErrors.ProjectNotFound(id);
}

/** The public keys that verify the project's access tokens, or null for no such project. */
export async function projectVerificationKeys(services: Services, input: { projectId: string }): Promise<PublicJwk[] | null> {
  const project = await services.projects.get(input.projectId);
  if (!project) return null;
  // The current key first; during a rotation of the server secret the previous secrets' keys too, as they verify.
  return (await services.keys.verificationKeys(project.id)).map((k) => k.publicJwk);
}
