// /internal/projects: users of the internal project create and list the projects they own
// (projects/owned-projects.ts).
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { AdminProject, ProjectCreate, AdminProjectList } from '@gatehouse/shared/schemas/projects';
import { route } from '../http/route';
import { createOwnedProject, listOwnedProjects } from '../projects/owned-projects';
import { adminProjectView } from '../presenters/projects';

export const internalProjectRoutes = [
  route({
    method: 'GET', path: '/internal/projects', summary: 'List the projects the signed-in internal user owns', tags: ['Projects'],
    access: [...ACCESS_TYPES], response: AdminProjectList,
    async handler({ services, auth }) {
      const owned = await listOwnedProjects(services, { caller: auth });
      return { items: owned.map((o) => adminProjectView(o.project, o.userCount)), is_paginated: false as const };
    },
  }),
  route({
    method: 'POST', path: '/internal/projects', summary: 'Create a project owned by the signed-in internal user', tags: ['Projects'],
    access: [...ACCESS_TYPES], body: ProjectCreate, response: AdminProject, status: 201,
    async handler({ services, auth, body }) {
      const { project, userCount } = await createOwnedProject(services, { caller: auth, fields: body });
      return adminProjectView(project, userCount);
    },
  }),
];
