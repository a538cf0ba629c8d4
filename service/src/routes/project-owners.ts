// A project's owners (Gatehouse's admin API; projects/owners.ts): the list, and removing one (never the last).
import { Success } from '@gatehouse/shared/schemas/common';
import { ProjectOwnerList, ProjectOwnerParams } from '@gatehouse/shared/schemas/project-owners';
import { route } from '../http/route';
import { listProjectOwners, removeProjectOwner } from '../projects/owners';
import { projectOwnerView } from '../presenters/project-owners';

const TAGS = ['Projects'];

export const projectOwnerRoutes = [
  route({
    method: 'GET', path: '/internal/owners', summary: "[Gatehouse] The project's owners (internal users whose managedProjectIds list it), oldest first", tags: TAGS,
    access: ['admin'], response: ProjectOwnerList,
    async handler({ services, auth }) {
      return { items: (await listProjectOwners(services, { projectId: auth.project.id })).map(projectOwnerView), is_paginated: false as const };
    },
  }),
  route({
    method: 'DELETE', path: '/internal/owners/:user_id', summary: '[Gatehouse] Remove an owner of the project (never the last one)', tags: TAGS,
    access: ['admin'], params: ProjectOwnerParams, response: Success,
    async handler({ services, auth, params }) {
      await removeProjectOwner(services, { projectId: auth.project.id, userId: params.user_id });
      return { success: true as const };
    },
  }),
];
