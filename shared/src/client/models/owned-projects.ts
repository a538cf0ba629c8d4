// Projects owned by a user of the `internal` project (client-library §1.7.3): each carries an admin app acting through
// the owner's session.
//
// The admin app class extends the server and client app classes, whose users are built here: the class is loaded with
// `import()` together with the list (as the client app loads the user model), so no module imports another that
// imports it back while loading. The factory admin-app.ts used to register at load time was lost whenever a bundler
// dropped admin-app.ts from an app that never names GatehouseAdminApp (the package is `sideEffects: false`), and
// listing owned projects then threw.
import type { CachedRead } from '../cache.ts';
import type { ClientCore } from '../core.ts';
import type { InternalSession } from '../session.ts';
import { items, type ClientContext } from './common.ts';
import {
  adminProjectCreateToWire,
  createAdminProject,
  type AdminOwnedProject,
  type AdminProjectCreateOptions,
} from './projects.ts';
import type { GatehouseAdminApp } from '../admin-app.ts';
import { ownerInvitationDetailsFromJson, type OwnerInvitationDetails } from './owner-invitations.ts';
import type {
  AdminProjectJson, ListOf, OwnerInvitationAcceptedJson, OwnerInvitationCodeBody, OwnerInvitationDetailsJson, ProjectCreateBody, ProjectUpdateBody,
} from '../wire.ts';

type AdminAppModule = typeof import('../admin-app.ts');
const loadAdminApp = (): Promise<AdminAppModule> => import('../admin-app.ts');

/** The list as the service answers it, with the admin app module its projects' apps come from. */
type OwnedProjectsAnswer = { projects: AdminProjectJson[]; adminApp: AdminAppModule };

// One app per (owner session, project): a project listed twice keeps its app, and so the app's caches.
const ownedApps = new WeakMap<InternalSession, Map<string, GatehouseAdminApp>>();
function ownedApp(adminApp: AdminAppModule, core: ClientCore, projectId: string, session: InternalSession): GatehouseAdminApp {
  let bySession = ownedApps.get(session);
  if (!bySession) ownedApps.set(session, (bySession = new Map()));
  let app = bySession.get(projectId);
  if (!app) bySession.set(projectId, (app = adminApp.ownedProjectApp(core, projectId, session)));
  return app;
}

export function ownedProjectsCache(ctx: ClientContext) {
  return ctx.core.cache('owned-projects', async ([s]: [InternalSession]): Promise<OwnedProjectsAnswer> => {
    const [list, adminApp] = await Promise.all([ctx.core.json<ListOf<AdminProjectJson>>('/internal/projects', {}, s, 'client'), loadAdminApp()]);
    return { projects: items(list), adminApp };
  });
}

function ownedProjectFromJson(ctx: ClientContext, adminApp: AdminAppModule, json: AdminProjectJson): AdminOwnedProject {
  const app = ownedApp(adminApp, ctx.core, json.id, ctx.session);
  const refresh = () => ownedProjectsCache(ctx).refresh([ctx.session]);
  const project = createAdminProject(json, {
    update: async (wire) => {
      await app._core.json<AdminProjectJson, ProjectUpdateBody>('/projects/current', { method: 'PATCH', body: wire }, null, 'admin');
      await refresh();
    },
    delete: async () => {
      await app._core.json('/projects/current', { method: 'DELETE' }, null, 'admin');
    },
  });
  return Object.freeze({ ...project, app });
}

export function createOwnedProjectsRead(ctx: ClientContext): CachedRead<AdminOwnedProject[]> {
  return ownedProjectsCache(ctx).handle([ctx.session], 'owned', ({ projects, adminApp }) => projects.map((p) => ownedProjectFromJson(ctx, adminApp, p)));
}

export async function createProjectAsOwner(ctx: ClientContext, options: AdminProjectCreateOptions): Promise<AdminOwnedProject> {
  const [json, adminApp] = await Promise.all([
    ctx.core.json<AdminProjectJson, ProjectCreateBody>('/internal/projects', { method: 'POST', body: adminProjectCreateToWire(options) }, ctx.session, 'client'),
    loadAdminApp(),
  ]);
  await ownedProjectsCache(ctx).refresh([ctx.session]);
  return ownedProjectFromJson(ctx, adminApp, json);
}

/** Accepts an owner invitation (issue 26) and answers the project, now in the user's owned list. */
export async function acceptOwnerInvitation(ctx: ClientContext, code: string): Promise<AdminOwnedProject> {
  const accepted = await ctx.core.json<OwnerInvitationAcceptedJson, OwnerInvitationCodeBody>('/internal/owner-invitations/accept', { method: 'POST', body: { code } }, ctx.session, 'client');
  await ownedProjectsCache(ctx).refresh([ctx.session]);
  const owned = await createOwnedProjectsRead(ctx).get();
  const project = owned.find((p) => p.id === accepted.project_id);
  if (!project) throw new Error(`The accepted project ${accepted.project_id} is not among the user's projects`);
  return project;
}

async function getOwnerInvitation(ctx: ClientContext, code: string): Promise<OwnerInvitationDetails> {
  const json = await ctx.core.json<OwnerInvitationDetailsJson, OwnerInvitationCodeBody>('/internal/owner-invitations/accept/details', { method: 'POST', body: { code } }, ctx.session, 'client');
  return ownerInvitationDetailsFromJson(json);
}

/**
 * §1.7.3 owner methods of a current user (client or server view) bound to its session. They exist on every
 * current user but throw outside the `internal` project.
 */
export function ownerMethods(ctx: ClientContext): {
  createProject(options: AdminProjectCreateOptions): Promise<AdminOwnedProject>;
  listOwnedProjects(): Promise<AdminOwnedProject[]>;
  getOwnerInvitation(code: string): Promise<OwnerInvitationDetails>;
  acceptOwnerInvitation(code: string): Promise<AdminOwnedProject>;
} {
  const notInternal = () => {
    throw new Error("Cannot call this function on a Stack app with a project ID other than 'internal'.");
  };
  if (ctx.core.projectId !== 'internal') {
    return { createProject: notInternal, listOwnedProjects: notInternal, getOwnerInvitation: notInternal, acceptOwnerInvitation: notInternal };
  }
  return {
    createProject: (options) => createProjectAsOwner(ctx, options),
    listOwnedProjects: () => createOwnedProjectsRead(ctx).get(),
    getOwnerInvitation: (code) => getOwnerInvitation(ctx, code),
    acceptOwnerInvitation: (code) => acceptOwnerInvitation(ctx, code),
  };
}
