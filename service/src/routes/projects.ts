// The current project (client view for client/server access, full view for admins) and its public keys
// (projects/project-settings.ts).
import { AdminProject, ClientProject, Jwks, JwksParams, ProjectUpdate } from '@gatehouse/shared/schemas/projects';
import { Success } from '@gatehouse/shared/schemas/common';
import { perAccess, route } from '../http/route';
import { HttpResult } from '../http/respond';
import { deleteProject, projectVerificationKeys, updateProject, withUserCount } from '../projects/project-settings';
import { adminProjectView, clientProjectView } from '../presenters/projects';

export const projectRoutes = [
  route({
    method: 'GET', path: '/projects/current', summary: 'Get the current project', tags: ['Projects'],
    access: ['client', 'server', 'admin'], response: perAccess({ client: ClientProject, server: ClientProject, admin: AdminProject }),
    async handler({ services, auth }) {
      if (auth.type !== 'admin') return clientProjectView(auth.project);
      const { project, userCount } = await withUserCount(services, auth.project);
      return adminProjectView(project, userCount);
    },
  }),
  route({
    method: 'PATCH', path: '/projects/current', summary: 'Update the current project (only the fields named change)', tags: ['Projects'],
    access: ['admin'], body: ProjectUpdate, response: AdminProject,
    async handler({ services, auth, body }) {
      const { project, userCount } = await updateProject(services, { projectId: auth.project.id, changes: body });
      return adminProjectView(project, userCount);
    },
  }),
  route({
    method: 'DELETE', path: '/projects/current', summary: 'Delete the current project and everything in it', tags: ['Projects'],
    access: ['admin'], response: Success,
    async handler({ services, auth }) {
      await deleteProject(services, { projectId: auth.project.id });
      return { success: true as const };
    },
  }),
  route({
    method: 'GET', path: '/projects/:project_id/.well-known/jwks.json', summary: "The project's access-token verification keys (JWKS)", tags: ['Projects'],
    access: 'optional', params: JwksParams,
    response: Jwks,
    async handler({ services, params }) {
      const keys = await projectVerificationKeys(services, { projectId: params.project_id });
      if (!keys) return HttpResult.text('Project not found', 404);
      return { keys };
    },
  }),
];
