// The current project (client view for client/server access, full view for admins) and its public keys.
import { Type } from '@sinclair/typebox';
import { AdminProject, ClientProject } from '@gatehouse/shared/schemas/projects';
import { Strict } from '@gatehouse/shared/schemas/common';
import { perAccess, route } from '../http/route';
import { HttpResult } from '../http/respond';
import * as projects from '../repo/projects';

export const projectRoutes = [
  route({
    method: 'GET', path: '/projects/current', summary: 'Get the current project', tags: ['Projects'],
    access: ['client', 'server', 'admin'], response: perAccess({ client: ClientProject, server: ClientProject, admin: AdminProject }),
    async handler({ services, auth }) {
      return auth.type === 'admin' ? projects.adminView(services.db, auth.project) : projects.clientView(auth.project);
    },
  }),
  route({
    method: 'GET', path: '/projects/:project_id/.well-known/jwks.json', summary: "The project's access-token verification keys (JWKS)", tags: ['Projects'],
    access: 'optional', params: Strict({ project_id: Type.String() }),
    response: Strict({ keys: Type.Array(Type.Object({ kty: Type.String(), crv: Type.String(), x: Type.String(), y: Type.String(), kid: Type.String(), alg: Type.String() })) }),
    async handler({ services, params }) {
      const project = await services.projects.get(params.project_id);
      if (!project) return HttpResult.text('Project not found', 404);
      const key = await services.keys.get(project.id);
      return { keys: [key.publicJwk] };
    },
  }),
];
