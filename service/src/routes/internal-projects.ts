// /internal/projects: users of the internal project create and list the projects they own.
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { AdminProject, ProjectCreate, defaultProjectConfig, AdminProjectList } from '@gatehouse/shared/schemas/projects';
import { route, type AuthedContext } from '../http/route';
import { managedProjectIds } from '../http/request-access';
import * as projects from '../repo/projects';
import { createDefaultPermissionDefinitions } from '../repo/permission-definitions';
import { applyConfigUpdate, configSchemaProblems } from '../projects/config-validation';
import { mayCreateProject } from '../projects/creation-policy';
import { adminProjectView } from '../presenters/projects';

const NEW_PROJECT_FACTS = { teamPermissionIds: new Set(['admin', 'member']), projectPermissionIds: new Set<string>(), hasCustomEmailTemplates: false };

async function requireInternalUser(ctx: AuthedContext) {
  if (ctx.auth.project.id !== 'internal') throw new KnownErrors.ExpectedInternalProject();
  return ctx.requireUser(() => new KnownErrors.UserAuthenticationRequired());
}

export const internalProjectRoutes = [
  route({
    method: 'GET', path: '/internal/projects', summary: 'List the projects the signed-in internal user owns', tags: ['Projects'],
    access: [...ACCESS_TYPES], response: AdminProjectList,
    async handler(ctx) {
      const user = await requireInternalUser(ctx);
      const owned = await projects.listByIds(ctx.services.db, managedProjectIds(user.server_metadata));
      owned.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      return { items: await Promise.all(owned.map(async (p) => adminProjectView(p, await projects.userCount(ctx.services.db, p.id)))), is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/internal/projects', summary: 'Create a project owned by the signed-in internal user', tags: ['Projects'],
    access: [...ACCESS_TYPES], body: ProjectCreate, response: AdminProject, status: 201,
    async handler(ctx) {
      const user = await requireInternalUser(ctx);
      // Least privilege (ASVS 4.1.3): an anonymous user (anyone, one request away) must not mint project keys.
      if (user.is_anonymous) throw new StatusError(403, 'Anonymous users cannot create projects. Sign up with an email first.');
      const creator = { accessType: ctx.auth.type, primaryEmail: user.primary_email, primaryEmailVerified: user.primary_email_verified === true };
      if (!mayCreateProject(ctx.services.config.projectCreation, creator)) throw new KnownErrors.ProjectCreationNotAllowed();
      const { body } = ctx;
      const problems = body.config ? configSchemaProblems(body.config) : [];
      if (problems.length) throw ctx.schemaError(...problems);
      // Same rules as PATCH /projects/current, against what a new project has: the `admin` and `member`
      // team definitions, no project permissions, no custom templates.
      const config = applyConfigUpdate(defaultProjectConfig(), body.config ?? {}, NEW_PROJECT_FACTS);
      const project = await ctx.services.db.transaction(async (tx) => {
        const created = await projects.create(tx, { displayName: body.display_name, description: body.description ?? '', isProductionMode: body.is_production_mode, config });
        await createDefaultPermissionDefinitions(tx, created.id);
        await projects.addManagedProject(tx, user.id, created.id);
        return created;
      });
      return adminProjectView(project, await projects.userCount(ctx.services.db, project.id));
    },
  }),
];

