// A small app using each of the three apps; `tsc -p shared/tsconfig.json` type-checks it against the public API.
// Run against a local service: bun shared/examples/example-app.ts (needs the env variables below).
import {
  GatehouseAdminApp,
  GatehouseServerApp,
  StackClientApp,
  cachedReadsSymbol,
  type CurrentUser,
  type ServerTeam,
  type ServerUser,
  type Team,
} from '../src/client/index.ts';

declare const process: { env: Record<string, string | undefined> };

const baseUrl = process.env.GATEHOUSE_URL ?? 'http://localhost:8102';
const projectId = process.env.GATEHOUSE_PROJECT_ID ?? 'internal';

/** Browser-style usage (here with a memory store, so it also runs under Bun or Node). */
export async function clientExample(email: string, password: string): Promise<CurrentUser> {
  const app = new StackClientApp({
    baseUrl,
    projectId,
    publishableClientKey: process.env.GATEHOUSE_PUBLISHABLE_CLIENT_KEY,
    tokenStore: 'memory',
    urls: { afterSignIn: '/dashboard' },
  });
  const signUp = await app.signUpWithCredential({ email, password, noRedirect: true, verificationCallbackUrl: `${baseUrl}/verify` });
  if (signUp.status === 'error') {
    const signIn = await app.signInWithCredential({ email, password, noRedirect: true });
    if (signIn.status === 'error') throw signIn.error;
  }
  const user = await app.getUser({ or: 'throw' });
  await user.setDisplayName('Example user');
  const teams: Team[] = await user.listTeams();
  const channels = await user.listContactChannels();
  const sessions = await user.getActiveSessions();
  const headers = await user.getAuthHeaders();
  console.log(user.primaryEmail, teams.length, channels.map((c) => c.value), sessions.length, Object.keys(headers));

  // What a React hook would use: a synchronous snapshot plus a subscription.
  const read = app[cachedReadsSymbol].currentUser();
  const unsubscribe = read.subscribe(() => console.log('user changed', read.peek().status));
  unsubscribe();
  return user;
}

/** Back-end usage: acts for any user with the secret server key; reads a browser's tokens from a request. */
export async function serverExample(request?: Request): Promise<ServerUser[]> {
  const app = new GatehouseServerApp({
    baseUrl,
    projectId,
    publishableClientKey: process.env.GATEHOUSE_PUBLISHABLE_CLIENT_KEY,
    secretServerKey: process.env.GATEHOUSE_SECRET_SERVER_KEY,
    tokenStore: null,
  });
  if (request) {
    const caller = await app.getUser({ tokenStore: request });
    console.log('request from', caller?.id ?? 'nobody');
  }
  const created = await app.createUser({ primaryEmail: `example-${Date.now()}@example.com`, password: 'example-password', primaryEmailAuthEnabled: true });
  const team: ServerTeam = await app.createTeam({ displayName: 'Example team', creatorUserId: created.id });
  await team.update({ serverMetadata: { plan: 'free' } });
  const session = await created.createSession({ expiresInMillis: 60_000 });
  console.log('tokens for', created.id, Object.keys(session.getTokens()));
  const page = await app.listUsers({ limit: 10 });
  console.log('next cursor', page.nextCursor);
  return page;
}

/** Administration with the admin key. */
export async function adminExample(): Promise<void> {
  const app = new GatehouseAdminApp({
    baseUrl,
    projectId,
    publishableClientKey: process.env.GATEHOUSE_PUBLISHABLE_CLIENT_KEY,
    secretServerKey: process.env.GATEHOUSE_SECRET_SERVER_KEY,
    superSecretAdminKey: process.env.GATEHOUSE_SUPER_SECRET_ADMIN_KEY,
    tokenStore: null,
  });
  const project = await app.getProject();
  console.log(project.displayName, project.config.signUpEnabled, await project.getProductionModeErrors());
  const keys = await app.listInternalApiKeys();
  console.log(keys.map((k) => `${k.description}: ${k.whyInvalid() ?? 'valid'}`));
  const templates = await app.listEmailTemplates();
  console.log(templates.map((t) => t.type));
  const definitions = await app.listTeamPermissionDefinitions();
  console.log(definitions.map((d) => d.id));
}

/** Admin access through a project owner's session (how a console works). */
export async function ownerExample(owner: CurrentUser): Promise<void> {
  const app = new GatehouseAdminApp({ baseUrl, projectId, tokenStore: null, projectOwnerSession: owner });
  console.log((await app.getProject()).userCount);
}
