// Server and admin apps against the real running service.
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sharedService, uniqueEmail, DEV_KEYS, type RunningService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { GatehouseAdminApp, GatehouseClientApp, GatehouseServerApp, type CurrentInternalServerUser, type CurrentInternalUser } from '../../src/client/index.ts';
import { KnownErrors } from '../../src/known-errors.ts';
import { adminFor, serverFor } from './service-helpers.ts';
import { cachedReadsSymbol } from '../../src/client/index.ts';


// Each test talks to a real service (argon2 hashing, several round trips); the harness start takes longer still.
setDefaultTimeout(90_000);
let svc: RunningService;
let project: TestProject;

beforeAll(async () => {
  svc = await sharedService();
  project = await newProject(svc);
}, 180_000);

const serverApp = () => serverFor(project);
const adminApp = () => adminFor(project);

describe('server app', () => {
  test('createUser, getUser by id, update wrappers, listUsers with cursor', async () => {
    const app = serverApp();
    const email = uniqueEmail('srv');
    const created = await app.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true, password: 'server-pass-1', displayName: 'S' });
    expect(created.primaryEmail).toBe(email);
    expect(created.primaryEmailAuthEnabled).toBe(true);
    expect(created.lastActiveAt).toBeInstanceOf(Date);
    await created.setServerMetadata({ tier: 'gold' });
    await created.setClientReadOnlyMetadata({ ro: 1 });
    await created.update({ displayName: 'Renamed', primaryEmailVerified: true });
    const fetched = await app.getUser(created.id);
    expect(fetched).toMatchObject({ displayName: 'Renamed', serverMetadata: { tier: 'gold' }, clientReadOnlyMetadata: { ro: 1 }, primaryEmailVerified: true });
    expect(await app.getUser('00000000-0000-4000-8000-000000000000')).toBeNull();

    await app.createUser({ primaryEmail: uniqueEmail('srv2') });
    await app.createUser({ primaryEmail: uniqueEmail('srv3') });
    const page = await app.listUsers({ limit: 2 });
    expect(page.length).toBe(2);
    expect(typeof page.nextCursor).toBe('string');
    const next = await app.listUsers({ limit: 2, cursor: page.nextCursor! });
    expect(next[0]!.id).toBe(page.nextCursor!);
    const found = await app.listUsers({ query: email });
    expect(found.map((u) => u.id)).toEqual([created.id]);
  });

  test('listUsers filters (Gatehouse) and exportUsersCsv: the same users, a CSV stream', async () => {
    const p = await newProject(svc);
    const app = serverFor(p);
    const withPassword = await app.createUser({ primaryEmail: uniqueEmail('pw'), primaryEmailVerified: true, password: 'server-pass-1' });
    const without = await app.createUser({ displayName: 'No password' });
    expect((await app.listUsers({ hasPassword: true })).map((u) => u.id)).toEqual([withPassword.id]);
    expect((await app.listUsers({ hasPassword: false })).map((u) => u.id)).toEqual([without.id]);
    expect((await app.listUsers({ emailVerified: true, hasMfa: false })).map((u) => u.id)).toEqual([withPassword.id]);
    expect(await app.listUsers({ signedInWithinDays: 7 })).toEqual([]);
    const stream = await app.exportUsersCsv({ hasPassword: false });
    const lines = (await new Response(stream).text()).split('\r\n');
    expect(lines[0]).toBe('id,primary_email,primary_email_verified,display_name,has_password,has_mfa,signed_up_at,last_active_at');
    expect(lines.slice(1).filter(Boolean).map((l) => l.split(',')[0])).toEqual([without.id]);
  });

  test('server setPassword ends the user sessions; the user can sign in with the new password', async () => {
    const app = serverApp();
    const email = uniqueEmail('pw');
    const user = await app.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true, password: 'first-password' });
    const client = new GatehouseClientApp({ baseUrl: project.url, projectId: project.id, publishableClientKey: project.keys.publishableClientKey, tokenStore: 'memory', browser: null });
    expect((await client.signInWithCredential({ email, password: 'first-password', noRedirect: true })).status).toBe('ok');
    await user.setPassword({ password: 'second-password' });
    const fresh = new GatehouseClientApp({ baseUrl: project.url, projectId: project.id, publishableClientKey: project.keys.publishableClientKey, tokenStore: 'memory', browser: null });
    expect((await fresh.signInWithCredential({ email, password: 'second-password', noRedirect: true })).status).toBe('ok');
  });

  test('createSession gives static tokens usable as a token store; sessions listed and revoked; delete', async () => {
    const app = serverApp();
    const user = await app.createUser({ primaryEmail: uniqueEmail('sess') });
    const session = await user.createSession({ expiresInMillis: 3_600_000 });
    const tokens = session.getTokens();
    expect(tokens.refreshToken).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    const me = await app.getUser({ tokenStore: tokens });
    expect(me?.id).toBe(user.id);
    expect(me?.serverMetadata).toBeNull(); // server view of /users/me
    const listed = await user.getActiveSessions();
    expect(listed.length).toBe(1);
    await user.revokeSession(listed[0]!.id);
    expect(await user.getActiveSessions()).toEqual([]);
    await user.delete();
    expect(await app.getUser(user.id)).toBeNull();
  });

  test('server getUser() reads the current user of a request', async () => {
    const app = serverApp();
    const user = await app.createUser({ primaryEmail: uniqueEmail('req') });
    const { accessToken, refreshToken } = (await user.createSession()).getTokens();
    const request = new Request('http://backend.local/', { headers: { 'x-stack-auth': JSON.stringify({ accessToken, refreshToken }) } });
    const current = await app.getUser({ tokenStore: request, or: 'throw' });
    expect(current.id).toBe(user.id);
    expect((await current.getAuthJson()).refreshToken).toBe(refreshToken);
    await current.setDisplayName('via request'); // server variant: PATCH /users/{id}
    expect((await app.getUser(user.id))?.displayName).toBe('via request');
  });

  test('sendVerificationEmail on a server user is unsupported', async () => {
    const user = await serverApp().createUser({ primaryEmail: uniqueEmail('unsup') });
    await expect(user.sendVerificationEmail()).rejects.toThrow('is not yet supported');
  });

  test('a wrong secret key is the typed error; a client app cannot use server routes', async () => {
    const bad = new GatehouseServerApp({ baseUrl: project.url, projectId: project.id, publishableClientKey: project.keys.publishableClientKey, secretServerKey: 'ssk_wrong', tokenStore: null });
    await expect(bad.listUsers()).rejects.toBeInstanceOf(KnownErrors.InvalidSecretServerKey);
  });
});

describe('admin app', () => {
  test('admin project view, update and production-mode errors', async () => {
    const app = adminApp();
    const p = await app.getProject();
    expect(p.id).toBe(project.id);
    expect(p.createdAt).toBeInstanceOf(Date);
    expect(p.config.allowLocalhost).toBe(true);
    expect(p.config.emailConfig).toEqual({ type: 'shared' });
    expect(await p.getProductionModeErrors()).toEqual([
      { message: "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings", relativeFixUrl: `/projects/${project.id}/domains`, problem: 'localhost-allowed' },
    ]);
    await p.update({ displayName: 'Renamed project', config: { domains: [{ domain: 'http://1.2.3.4', handlerPath: '/handler' }], allowLocalhost: false } });
    const after = await app.getProject();
    expect(after.displayName).toBe('Renamed project');
    expect(after.config.domains).toEqual([{ domain: 'http://1.2.3.4', handlerPath: '/handler' }]);
    expect((await after.getProductionModeErrors()).map((e) => e.message)).toEqual(['Direct IPs are not valid for trusted domains in production mode: http://1.2.3.4']);
  });

  test('internal API keys: create (full values once), list (last four), revoke', async () => {
    const app = adminApp();
    const created = await app.createInternalApiKey({
      description: 'ci',
      expiresAt: new Date(Date.now() + 86_400_000),
      hasPublishableClientKey: true,
      hasSecretServerKey: false,
      hasSuperSecretAdminKey: false,
    });
    expect(created.publishableClientKey).toMatch(/^pck_/);
    expect(created.secretServerKey).toBeUndefined();
    const listed = (await app.listInternalApiKeys()).find((k) => k.id === created.id)!;
    expect(listed.publishableClientKey).toEqual({ lastFour: created.publishableClientKey!.slice(-4) });
    expect(listed.isValid()).toBe(true);
    await listed.revoke();
    const revoked = (await app.listInternalApiKeys()).find((k) => k.id === created.id)!;
    expect(revoked.whyInvalid()).toBe('manually-revoked');
    // the revoked key no longer works
    const client = new GatehouseClientApp({ baseUrl: project.url, projectId: project.id, publishableClientKey: created.publishableClientKey!, tokenStore: 'memory', browser: null });
    await expect(client.getProject()).rejects.toBeInstanceOf(KnownErrors.InvalidPublishableClientKey);
  });

  test('owner flow: an internal user creates and lists projects; the owned project app works without keys', async () => {
    const internal = new GatehouseClientApp({
      baseUrl: svc.url,
      projectId: 'internal',
      publishableClientKey: DEV_KEYS.publishableClientKey,
      tokenStore: 'memory',
      browser: null,
    });
    const res = await internal.signUpWithCredential({ email: uniqueEmail('owner'), password: 'owner-password-1', noRedirect: true, verificationCallbackUrl: 'http://localhost/v' });
    expect(res.status).toBe('ok');
    // Users of the internal project carry the owner methods (CurrentInternalUser).
    const owner = (await internal.getUser({ or: 'throw' })) as CurrentInternalUser;
    const created = await owner.createProject({ displayName: 'Owned', config: { credentialEnabled: true } });
    expect(created.displayName).toBe('Owned');
    const owned = await owner.listOwnedProjects();
    expect(owned.map((p) => p.id)).toEqual([created.id]);
    const ownedApp = created.app;
    const keys = await ownedApp.createInternalApiKey({
      description: 'k',
      expiresAt: new Date(Date.now() + 3_600_000),
      hasPublishableClientKey: true,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: false,
    });
    expect(keys.secretServerKey).toMatch(/^ssk_/);
    expect((await ownedApp.getProject()).id).toBe(created.id);
    // an admin app built directly from the owner's session
    const direct = new GatehouseAdminApp({ baseUrl: svc.url, projectId: created.id, tokenStore: null, projectOwnerSession: owner });
    expect((await direct.getProject()).displayName).toBe('Owned');
    await created.update({ displayName: 'Owned 2' });
    expect((await owner.listOwnedProjects())[0]!.displayName).toBe('Owned 2');
    // a non-internal user cannot list owned projects
    const plain = new GatehouseClientApp({ baseUrl: project.url, projectId: project.id, publishableClientKey: project.keys.publishableClientKey, tokenStore: 'memory', browser: null });
    await plain.signUpWithCredential({ email: uniqueEmail(), password: 'password-123', noRedirect: true, verificationCallbackUrl: 'http://localhost/v' });
    const plainUser = (await plain.getUser({ or: 'throw' })) as any;
    expect(() => plainUser.listOwnedProjects()).toThrow("Cannot call this function on a Stack app with a project ID other than 'internal'.");
  }, 30_000);

  test('owner flow on a server app: the current server user of the internal project owns projects too', async () => {
    const internal = new GatehouseServerApp({
      baseUrl: svc.url,
      projectId: 'internal',
      publishableClientKey: DEV_KEYS.publishableClientKey,
      secretServerKey: DEV_KEYS.secretServerKey,
      tokenStore: 'memory',
      browser: null,
    });
    const res = await internal.signUpWithCredential({ email: uniqueEmail('srvowner'), password: 'owner-password-1', noRedirect: true, verificationCallbackUrl: 'http://localhost/v' });
    expect(res.status).toBe('ok');
    const owner = (await internal.getUser({ or: 'throw' })) as CurrentInternalServerUser;
    expect(owner.serverMetadata).toBeNull(); // the server view
    const created = await owner.createProject({ displayName: 'Server-owned' });
    expect((await owner.listOwnedProjects()).map((p) => p.id)).toEqual([created.id]);
    expect((await created.app.getProject()).displayName).toBe('Server-owned');
    // the hook-facing read of the owned list exists on the current server user as well
    expect((await owner[cachedReadsSymbol].ownedProjects().read()).map((p) => p.id)).toEqual([created.id]);
    // on any other project the methods exist but refuse
    const plain = serverApp();
    const u = await plain.createUser({ primaryEmail: uniqueEmail('plain') });
    const current = (await plain.getUser({ tokenStore: (await u.createSession()).getTokens(), or: 'throw' })) as unknown as CurrentInternalServerUser;
    expect(() => current.listOwnedProjects()).toThrow("Cannot call this function on a Stack app with a project ID other than 'internal'.");
    expect(() => current.createProject({ displayName: 'x' })).toThrow("Cannot call this function on a Stack app with a project ID other than 'internal'.");
  }, 30_000);

  test('an owned project app inherits fetch, logger, extra headers, redirect method and MFA prompt of its parent', async () => {
    const seen: { url: string; headers: Headers }[] = [];
    const recordingFetch = (input: string, init?: RequestInit) => {
      seen.push({ url: input, headers: new Headers(init?.headers) });
      return fetch(input, init);
    };
    const logger = { warn: () => {} };
    const mfaPrompt = () => null;
    const internal = new GatehouseClientApp({
      baseUrl: svc.url,
      projectId: 'internal',
      publishableClientKey: DEV_KEYS.publishableClientKey,
      tokenStore: 'memory',
      browser: null,
      fetch: recordingFetch,
      logger,
      mfaPrompt,
      redirectMethod: 'window',
      extraRequestHeaders: { 'x-tenant-trace': 'from-parent' },
    });
    await internal.signUpWithCredential({ email: uniqueEmail('opts'), password: 'owner-password-1', noRedirect: true, verificationCallbackUrl: 'http://localhost/v' });
    const owner = (await internal.getUser({ or: 'throw' })) as CurrentInternalUser;
    const { app } = await owner.createProject({ displayName: 'Inherits' });
    expect(app._core.api.options.logger).toBe(logger);
    expect(app._core.options.mfaPrompt).toBe(mfaPrompt);
    expect(app._core.redirector.method).toBe('window');
    seen.length = 0;
    expect((await app.getProject()).displayName).toBe('Inherits');
    const request = seen.find((r) => r.url.endsWith('/projects/current'))!;
    expect(request.headers.get('x-tenant-trace')).toBe('from-parent');
    expect(request.headers.get('x-stack-project-id')).toBe(app.projectId);
  }, 30_000);

  test('constructor defaults: missing keys fail with the documented messages', () => {
    expect(() => new GatehouseClientApp({ tokenStore: null, projectId: undefined, publishableClientKey: 'x' })).toThrow(
      "Welcome to Stack Auth! It seems that you haven't provided a project ID.",
    );
    expect(() => new GatehouseServerApp({ tokenStore: null, projectId: 'p', publishableClientKey: 'x' })).toThrow(
      'No secret server key provided. Please copy your key from the Stack dashboard and put it in the STACK_SECRET_SERVER_KEY environment variable.',
    );
    expect(() => new GatehouseAdminApp({ tokenStore: null, projectId: 'p', publishableClientKey: 'x', secretServerKey: 'y' })).toThrow(
      'No super secret admin key provided.',
    );
  });

  test('metrics are readable through the admin cached read', async () => {
    const metrics = await adminApp().adminReads.metrics().get();
    expect(typeof metrics.total_users).toBe('number');
  });
});

describe('anonymous users', () => {
  test('the internal project signs up anonymous users; other projects refuse', async () => {
    const internal = new GatehouseClientApp({ baseUrl: svc.url, projectId: 'internal', publishableClientKey: DEV_KEYS.publishableClientKey, tokenStore: 'memory', browser: null });
    const anonymous = await internal.getUser({ or: 'anonymous' });
    expect(anonymous).toMatchObject({ isAnonymous: true, displayName: 'Anonymous user', primaryEmail: null });
    expect(await internal.getUser()).toBeNull();
    expect((await internal.getUser({ or: 'anonymous-if-exists' }))?.id).toBe(anonymous.id);
    const plain = new GatehouseClientApp({ baseUrl: project.url, projectId: project.id, publishableClientKey: project.keys.publishableClientKey, tokenStore: 'memory', browser: null });
    await expect(plain.getUser({ or: 'anonymous' })).rejects.toBeInstanceOf(KnownErrors.AnonymousAccountsNotEnabled);
  });
});
