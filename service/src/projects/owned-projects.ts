// The projects an internal user owns (/internal/projects): listing them, and creating one they then own.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { defaultProjectConfig, type ProjectCreate } from '@gatehouse/shared/schemas/projects';
import type { Services } from '../services';
import * as projects from '../repo/projects';
import type { UserRow } from '../repo/users';
import { createDefaultPermissionDefinitions } from '../repo/permission-definitions';
import { requireSignedInUser, type Caller } from '../auth/caller';
import { InputProblems } from '../input-problems';
import { applyConfigUpdate, configSchemaProblems } from './config-validation';
import { mayCreateProject } from './creation-policy';
import { administeredProjectIds } from './ownership';
import { withUserCount, type ProjectWithUserCount } from './project-settings';

const NEW_PROJECT_FACTS = { teamPermissionIds: new Set(['admin', 'member']), projectPermissionIds: new Set<string>(), hasCustomEmailTemplates: false };

/** The signed-in user of a request to the internal project (EXPECTED_INTERNAL_PROJECT elsewhere). */
export async function requireInternalUser(services: Services, caller: Caller): Promise<UserRow> {
  if (caller.project.id !== 'internal') throw new KnownErrors.ExpectedInternalProject();
  return requireSignedInUser(services, caller, () => new KnownErrors.UserAuthenticationRequired());
}

/** The caller's projects, newest first. */
export async function listOwnedProjects(services: Services, input: { caller: Caller }): Promise<ProjectWithUserCount[]> {
  const user = await requireInternalUser(services, input.caller);
  const owned = await projects.listByIds(services.db, administeredProjectIds(user.server_metadata, services.config));
  owned.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  return Promise.all(owned.map((p) => withUserCount(services, p)));
}

/** A new project owned by the caller, with the default `admin` and `member` team permission definitions. */
export async function createOwnedProject(services: Services, input: { caller: Caller; fields: ProjectCreate }): Promise<ProjectWithUserCount> {
  const { caller, fields: body } = input;
  const user = await requireInternalUser(services, caller);
  // Least privilege (ASVS 4.1.3): an anonymous user (anyone, one request away) must not mint project keys.
  if (user.is_anonymous) throw new StatusError(403, 'Anonymous users cannot create projects. Sign up with an email first.');
  const creator = { accessType: caller.type, primaryEmail: user.primary_email, primaryEmailVerified: user.primary_email_verified === true };
  if (!mayCreateProject(services.config.projectCreation, creator)) throw new KnownErrors.ProjectCreationNotAllowed();
  const problems = body.config ? configSchemaProblems(body.config) : [];
  if (problems.length) throw new InputProblems(problems);
  // Same rules as PATCH /projects/current, against what a new project has: the `admin` and `member` team
  // definitions, no project permissions, no custom templates.
  const config = applyConfigUpdate(defaultProjectConfig(), body.config ?? {}, NEW_PROJECT_FACTS);
  const project = await services.db.transaction(async (tx) => {
    const created = await projects.create(tx, { displayName: body.display_name, description: body.description ?? '', isProductionMode: body.is_production_mode, config });
    await createDefaultPermissionDefinitions(tx, created.id);
    await projects.addManagedProject(tx, user.id, created.id);
    return created;
  });
  return withUserCount(services, project);
}
