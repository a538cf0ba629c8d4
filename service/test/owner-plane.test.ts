// Issue 17 §3 (ASVS 4.1.3, 4.3.1), least privilege for the owner plane: the internal project's anonymous sign-up is
// off unless the operator turns it on; GATEHOUSE_PROJECT_CREATION restricts who may create projects (open, invited
// addresses, or none beyond the operator's keys); GATEHOUSE_OWNER_MFA_REQUIRED refuses owners' admin access tokens
// until the owner has a second factor. Real services with each setting; the anonymous-owner case is in hygiene.test.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Api, DEV_KEYS, expectKnownError, serverApi, startService, uniqueEmail, type RunningService } from './support/service';
import { internalClient } from './support/projects';
import { loadConfig } from '../src/config';
import { mayCreateProject } from '../src/projects/creation-policy';

setDefaultTimeout(90_000);
// Production needs a strong server secret to load its settings at all.
const SECRET = 'ab'.repeat(32);

describe('settings', () => {
  test('defaults: anonymous sign-up off; creation open in development, none in production; owner MFA required in production only', () => {
    const dev = loadConfig({});
    expect([dev.internalAnonymousSignUp, dev.projectCreation, dev.ownerMfaRequired]).toEqual([false, { mode: 'open', emails: [] }, false]);
    const prod = loadConfig({ NODE_ENV: 'production', GATEHOUSE_SERVER_SECRET: SECRET });
    expect([prod.internalAnonymousSignUp, prod.projectCreation, prod.ownerMfaRequired]).toEqual([false, { mode: 'none', emails: [] }, true]);
    const set = loadConfig({
      NODE_ENV: 'production', GATEHOUSE_SERVER_SECRET: SECRET, GATEHOUSE_INTERNAL_ANONYMOUS_SIGN_UP: 'true', GATEHOUSE_OWNER_MFA_REQUIRED: 'false',
      GATEHOUSE_PROJECT_CREATION: 'invited', GATEHOUSE_PROJECT_CREATORS: ' Ann@Example.com, bob@example.org ',
    });
    expect([set.internalAnonymousSignUp, set.projectCreation, set.ownerMfaRequired]).toEqual([true, { mode: 'invited', emails: ['ann@example.com', 'bob@example.org'] }, false]);
  });

  test('bad values stop the start, naming the variable', () => {
    const bad: [Record<string, string>, string][] = [
      [{ GATEHOUSE_PROJECT_CREATION: 'everyone' }, 'GATEHOUSE_PROJECT_CREATION: expected open, invited or none, got "everyone"'],
      [{ GATEHOUSE_PROJECT_CREATION: 'invited' }, 'GATEHOUSE_PROJECT_CREATORS: expected at least one email address when GATEHOUSE_PROJECT_CREATION is invited'],
      [{ GATEHOUSE_PROJECT_CREATION: 'invited', GATEHOUSE_PROJECT_CREATORS: 'ann@example.com,not-an-email' }, 'GATEHOUSE_PROJECT_CREATORS: expected a comma-separated list of email addresses, got "not-an-email"'],
      [{ GATEHOUSE_PROJECT_CREATORS: 'ann@example.com' }, 'GATEHOUSE_PROJECT_CREATORS: only used when GATEHOUSE_PROJECT_CREATION is invited (it is open)'],
      [{ GATEHOUSE_OWNER_MFA_REQUIRED: 'yes' }, 'GATEHOUSE_OWNER_MFA_REQUIRED: expected true or false, got "yes"'],
      [{ GATEHOUSE_INTERNAL_ANONYMOUS_SIGN_UP: '1' }, 'GATEHOUSE_INTERNAL_ANONYMOUS_SIGN_UP: expected true or false, got "1"'],
    ];
    for (const [env, message] of bad) expect(() => loadConfig(env)).toThrow(message);
  });

  test('who may create: client access follows the policy (invited: verified addresses only); server and admin keys always', () => {
    const invited = { mode: 'invited' as const, emails: ['ann@example.com'] };
    const client = (email: string | null, verified: boolean) => ({ accessType: 'client' as const, primaryEmail: email, primaryEmailVerified: verified });
    expect(mayCreateProject({ mode: 'open', emails: [] }, client(null, false))).toBe(true);
    expect(mayCreateProject({ mode: 'none', emails: [] }, client('ann@example.com', true))).toBe(false);
    expect(mayCreateProject(invited, client('Ann@Example.com', true))).toBe(true);
    expect(mayCreateProject(invited, client('ann@example.com', false))).toBe(false);
    expect(mayCreateProject(invited, client('eve@example.com', true))).toBe(false);
    for (const accessType of ['server', 'admin'] as const) {
      expect(mayCreateProject({ mode: 'none', emails: [] }, { accessType, primaryEmail: null, primaryEmailVerified: false })).toBe(true);
    }
  });
});

const internalServer = (svc: RunningService) => serverApi(svc.url, DEV_KEYS.projectId, DEV_KEYS.secretServerKey);

async function signUpOwner(svc: RunningService, email = uniqueEmail('owner')) {
  const res = await internalClient(svc).post('/auth/password/sign-up', { email, password: 'owner-password-1' });
  expect(res.status).toBe(200);
  return { email, userId: res.body.user_id as string, accessToken: res.body.access_token as string };
}

describe('anonymous sign-up off and invited project creators (operator settings unset / invited)', () => {
  let svc: RunningService;
  const invitedEmail = uniqueEmail('invited');
  beforeAll(async () => {
    // '' = unset: the test harness turns anonymous sign-up on for the protocol's own tests.
    svc = await startService({ env: { GATEHOUSE_INTERNAL_ANONYMOUS_SIGN_UP: '', GATEHOUSE_PROJECT_CREATION: 'invited', GATEHOUSE_PROJECT_CREATORS: invitedEmail.toUpperCase() }, startTimeoutMs: 150_000 });
  }, 180_000);
  afterAll(() => svc?.stop());

  test('the internal project refuses anonymous sign-up by default, with every access type', async () => {
    const keys = {
      client: internalClient(svc),
      server: internalServer(svc),
      admin: new Api(svc.url, { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'admin', 'x-stack-super-secret-admin-key': DEV_KEYS.superSecretAdminKey }),
    };
    for (const api of Object.values(keys)) expectKnownError(await api.post('/auth/anonymous/sign-up', {}), 'ANONYMOUS_ACCOUNTS_NOT_ENABLED', 400);
  });

  test('an invited address may create projects once verified; others may not; the operator (server key) always may', async () => {
    const create = (accessToken: string, api: Api = internalClient(svc)) => api.post('/internal/projects', { display_name: 'Restricted' }, { accessToken });
    const stranger = await signUpOwner(svc);
    const res = await create(stranger.accessToken);
    expectKnownError(res, 'PROJECT_CREATION_NOT_ALLOWED', 403);
    expect(res.body.error).toBe('Creating projects is restricted on this server. Ask its operator to allow your account.');
    expect((await internalClient(svc).get('/internal/projects', { accessToken: stranger.accessToken })).body.items).toEqual([]);

    // Signing up with an invited address proves nothing until the address is verified.
    const invited = await signUpOwner(svc, invitedEmail);
    expectKnownError(await create(invited.accessToken), 'PROJECT_CREATION_NOT_ALLOWED', 403);
    expect((await internalServer(svc).patch(`/users/${invited.userId}`, { primary_email_verified: true })).status).toBe(200);
    const created = await create(invited.accessToken);
    expect(created.status).toBe(201);
    expect((await internalClient(svc).get('/internal/projects', { accessToken: invited.accessToken })).body.items.map((p: any) => p.id)).toEqual([created.body.id]);

    // The operator, with the internal project's secret server key, creates a project for the stranger.
    expect((await create(stranger.accessToken, internalServer(svc))).status).toBe(201);
  });
});

describe('creation by the operator only, and owners need MFA (GATEHOUSE_PROJECT_CREATION=none, GATEHOUSE_OWNER_MFA_REQUIRED=true)', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ env: { GATEHOUSE_PROJECT_CREATION: 'none', GATEHOUSE_OWNER_MFA_REQUIRED: 'true' }, startTimeoutMs: 150_000 });
  }, 180_000);
  afterAll(() => svc?.stop());

  test('no user creates a project with client access; the server key does, for them', async () => {
    const owner = await signUpOwner(svc);
    expect((await internalServer(svc).patch(`/users/${owner.userId}`, { primary_email_verified: true })).status).toBe(200);
    expectKnownError(await internalClient(svc).post('/internal/projects', { display_name: 'Mine' }, { accessToken: owner.accessToken }), 'PROJECT_CREATION_NOT_ALLOWED', 403);
    expect((await internalServer(svc).post('/internal/projects', { display_name: 'Mine' }, { accessToken: owner.accessToken })).status).toBe(201);
  });

  test("an owner's admin access token is refused until the owner has TOTP, then accepted; turning TOTP off refuses it again", async () => {
    const owner = await signUpOwner(svc);
    const created = await internalServer(svc).post('/internal/projects', { display_name: 'Guarded' }, { accessToken: owner.accessToken });
    expect(created.status).toBe(201);
    const ownerAdmin = new Api(svc.url, { 'x-stack-project-id': created.body.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': owner.accessToken });
    const refused = await ownerAdmin.get('/projects/current');
    expectKnownError(refused, 'OWNER_MFA_REQUIRED', 403);
    expect(refused.body.error).toBe('Project owners must turn on multi-factor authentication (an authenticator app or a passkey) before using the admin API.');
    expectKnownError(await ownerAdmin.post('/internal/api-keys', { description: 'k', expires_at_millis: Date.now() + 3600_000, has_publishable_client_key: false, has_secret_server_key: true, has_super_secret_admin_key: false }), 'OWNER_MFA_REQUIRED', 403);

    const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString('base64');
    expect((await internalServer(svc).patch(`/users/${owner.userId}`, { totp_secret_base64: secret })).status).toBe(200);
    const accepted = await ownerAdmin.get('/projects/current');
    expect(accepted.status).toBe(200);
    expect(accepted.body.id).toBe(created.body.id);

    expect((await internalServer(svc).patch(`/users/${owner.userId}`, { totp_secret_base64: null })).status).toBe(200);
    expectKnownError(await ownerAdmin.get('/projects/current'), 'OWNER_MFA_REQUIRED', 403);
  });

  test('the internal project keys and client access of owners are not affected', async () => {
    const owner = await signUpOwner(svc);
    expect((await internalClient(svc).get('/users/me', { accessToken: owner.accessToken })).status).toBe(200);
    expect((await internalServer(svc).get(`/users/${owner.userId}`)).status).toBe(200);
  });
});
