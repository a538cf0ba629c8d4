// The current project (client view for client/server access, full view for admins) and its public keys.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { AdminProject, ClientProject, Jwks, JwksParams, ProjectUpdate } from '@gatehouse/shared/schemas/projects';
import { Success } from '@gatehouse/shared/schemas/common';
import { perAccess, route } from '../http/route';
import { HttpResult } from '../http/respond';
import * as projects from '../repo/projects';
import { applyConfigUpdate, configSchemaProblems } from '../projects/config-validation';
import { adminProjectView, clientProjectView } from '../presenters/projects';

export const projectRoutes = [
  route({
    method: 'GET', path: '/projects/current', summary: 'Get the current project', tags: ['Projects'],
    access: ['client', 'server', 'admin'], response: perAccess({ client: ClientProject, server: ClientProject, admin: AdminProject }),
    async handler({ services, auth }) {
      return auth.type === 'admin' ? adminProjectView(auth.project, await projects.userCount(services.db, auth.project.id)) : clientProjectView(auth.project);
    },
  }),
  route({
    method: 'PATCH', path: '/projects/current', summary: 'Update the current project (only the fields named change)', tags: ['Projects'],
    access: ['admin'], body: ProjectUpdate, response: AdminProject,
    async handler({ services, auth, body, schemaError }) {
      const problems = body.config ? configSchemaProblems(body.config) : [];
      if (problems.length) throw schemaError(...problems);
      const id = auth.project.id;
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
      return adminProjectView(updated, await projects.userCount(services.db, updated.id));
    },
  }),
  route({
    method: 'DELETE', path: '/projects/current', summary: 'Delete the current project and everything in it', tags: ['Projects'],
    access: ['admin'], response: Success,
    async handler({ services, auth }) {
      const id = auth.project.id;
      // Every admin access (and every owner's token) is rooted in the internal project.
      if (id === 'internal') throw new StatusError(400, 'The internal project cannot be deleted.');
      const deleted = await services.db.transaction((tx) => projects.removeWithOwnership(tx, id));
      services.projects.invalidate(id);
      services.apiKeys.invalidate(id);
      if (!deleted) throw new KnownErrors.ProjectNotFound(id);
      return { success: true as const };
    },
  }),
  route({
    method: 'GET', path: '/projects/:project_id/.well-known/jwks.json', summary: "The project's access-token verification keys (JWKS)", tags: ['Projects'],
    access: 'optional', params: JwksParams,
    response: Jwks,
    async handler({ services, params }) {
      const project = await services.projects.get(params.project_id);
      if (!project) return HttpResult.text('Project not found', 404);
      const key = await services.keys.get(project.id);
      return { keys: [key.publicJwk] };
    },
  }),
];
