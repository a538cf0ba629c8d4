// Environment-variable defaults of the app options (client-library §1.2, §4.1), end to end: apps built without
// explicit keys or base URL talk to the real service with what the environment gives them.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { uniqueEmail } from '../../../service/test/support/service.ts';
import { setupSuite } from '../../../service/test/support/suite.ts';
import { GatehouseAdminApp, GatehouseClientApp, GatehouseServerApp } from '../../src/client/index.ts';
import { fakeBrowser, fakeTimers } from './support.ts';

const ENV_NAMES = [
  'NEXT_PUBLIC_STACK_PROJECT_ID',
  'NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY',
  'STACK_SECRET_SERVER_KEY',
  'STACK_SUPER_SECRET_ADMIN_KEY',
  'NEXT_PUBLIC_BROWSER_STACK_API_URL',
  'NEXT_PUBLIC_SERVER_STACK_API_URL',
  'NEXT_PUBLIC_STACK_API_URL',
  'NEXT_PUBLIC_STACK_URL',
  'NEXT_PUBLIC_STACK_EXTRA_REQUEST_HEADERS',
] as const;
type EnvName = (typeof ENV_NAMES)[number];

// The service is started before any variable is touched, so its own environment is the test process's original one.
const { svc, p: project } = await setupSuite();

// Every test starts with none of the variables set and leaves the process environment as it found it.
const saved = new Map<EnvName, string | undefined>();
beforeEach(() => {
  for (const name of ENV_NAMES) {
    saved.set(name, process.env[name]);
    delete process.env[name];
  }
});
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function setEnv(vars: Partial<Record<EnvName, string | undefined>>) {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

/** Records what the library hands to fetch; only the started service is reachable (anything else throws, unretried). */
function recordingFetch() {
  const seen: { url: string; method: string; headers: Headers }[] = [];
  const fetchFn = async (input: string, init?: RequestInit) => {
    seen.push({ url: input, method: init?.method ?? 'GET', headers: new Headers(init?.headers) });
    if (!input.startsWith(`${svc.url}/api/v1/`)) throw new Error(`request to an unexpected host: ${input}`);
    return fetch(input, init);
  };
  return { seen, fetch: fetchFn };
}

const keyEnv = () => ({
  NEXT_PUBLIC_STACK_PROJECT_ID: project.id,
  NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY: project.keys.publishableClientKey,
  STACK_SECRET_SERVER_KEY: project.keys.secretServerKey,
  STACK_SUPER_SECRET_ADMIN_KEY: project.keys.superSecretAdminKey,
});

describe('keys and headers from the environment', () => {
  test('a client app with no explicit options signs up against the service named by the environment', async () => {
    setEnv({ ...keyEnv(), NEXT_PUBLIC_STACK_API_URL: svc.url, NEXT_PUBLIC_STACK_EXTRA_REQUEST_HEADERS: '{"x-tenant-hint":"from-env"}' });
    const rec = recordingFetch();
    const app = new GatehouseClientApp({ tokenStore: 'memory', browser: null, fetch: rec.fetch });
    const email = uniqueEmail('env');
    const res = await app.signUpWithCredential({ email, password: 'correct-horse-1', noRedirect: true, verificationCallbackUrl: 'http://localhost:3000/v' });
    expect(res.status).toBe('ok');
    expect((await app.getUser({ or: 'throw' })).primaryEmail).toBe(email);
    const signUp = rec.seen.find((r) => r.url.endsWith('/auth/password/sign-up'))!;
    expect(signUp.url).toBe(`${svc.url}/api/v1/auth/password/sign-up`);
    expect(signUp.headers.get('x-stack-project-id')).toBe(project.id);
    expect(signUp.headers.get('x-stack-publishable-client-key')).toBe(project.keys.publishableClientKey);
    expect(signUp.headers.get('x-tenant-hint')).toBe('from-env');
    expect(rec.seen.every((r) => r.headers.get('x-tenant-hint') === 'from-env')).toBe(true);
  });

  test('server and admin apps take their secret keys from the environment; the extra-headers variable is client-only', async () => {
    setEnv({ ...keyEnv(), NEXT_PUBLIC_STACK_API_URL: svc.url, NEXT_PUBLIC_STACK_EXTRA_REQUEST_HEADERS: '{"x-tenant-hint":"from-env"}' });
    const rec = recordingFetch();
    const server = new GatehouseServerApp({ tokenStore: null, fetch: rec.fetch });
    const created = await server.createUser({ primaryEmail: uniqueEmail('env-server'), password: 'correct-horse-1' });
    expect((await server.getUser(created.id))?.id).toBe(created.id);
    const admin = new GatehouseAdminApp({ tokenStore: null, fetch: rec.fetch });
    expect((await admin.getProject()).id).toBe(project.id);

    const serverReq = rec.seen.find((r) => r.headers.get('x-stack-access-type') === 'server')!;
    expect(serverReq.headers.get('x-stack-secret-server-key')).toBe(project.keys.secretServerKey);
    const adminReq = rec.seen.find((r) => r.headers.get('x-stack-access-type') === 'admin')!;
    expect(adminReq.headers.get('x-stack-super-secret-admin-key')).toBe(project.keys.superSecretAdminKey);
    expect(adminReq.headers.get('x-stack-publishable-client-key')).toBe(project.keys.publishableClientKey);
    expect(rec.seen.length).toBeGreaterThan(2);
    expect(rec.seen.filter((r) => r.headers.has('x-tenant-hint'))).toEqual([]);
  });

  test('explicit options win over the environment', async () => {
    setEnv({
      NEXT_PUBLIC_STACK_PROJECT_ID: 'not-this-project',
      NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY: 'pck_not_this_one',
      STACK_SECRET_SERVER_KEY: 'ssk_not_this_one',
      STACK_SUPER_SECRET_ADMIN_KEY: 'sak_not_this_one',
      NEXT_PUBLIC_SERVER_STACK_API_URL: 'http://server-env.invalid',
      NEXT_PUBLIC_STACK_API_URL: 'http://api-env.invalid',
      NEXT_PUBLIC_STACK_EXTRA_REQUEST_HEADERS: '{"x-tenant-hint":"from-env"}',
    });
    const rec = recordingFetch();
    const explicit = { baseUrl: svc.url, projectId: project.id, publishableClientKey: project.keys.publishableClientKey, fetch: rec.fetch };
    const client = new GatehouseClientApp({ ...explicit, tokenStore: 'memory', browser: null, extraRequestHeaders: { 'x-tenant-hint': 'explicit' } });
    expect((await client.getProject()).id).toBe(project.id);
    const admin = new GatehouseAdminApp({
      ...explicit,
      secretServerKey: project.keys.secretServerKey,
      superSecretAdminKey: project.keys.superSecretAdminKey,
      tokenStore: null,
    });
    expect((await admin.getProject()).id).toBe(project.id);
    expect(rec.seen.map((r) => r.url.slice(0, svc.url.length))).toEqual([svc.url, svc.url]);
    expect(rec.seen[0]!.headers.get('x-tenant-hint')).toBe('explicit');
    expect(rec.seen[1]!.headers.get('x-stack-secret-server-key')).toBe(project.keys.secretServerKey);
    // an explicitly empty header map also wins over the variable
    const plain = new GatehouseClientApp({ ...explicit, tokenStore: null, browser: null, extraRequestHeaders: {} });
    await plain.getProject();
    expect(rec.seen[2]!.headers.has('x-tenant-hint')).toBe(false);
  });
});

describe('base URL precedence (§4.1)', () => {
  const dead = (name: string) => `http://${name}.invalid`;

  test('server side: SERVER variable, then STACK_API_URL, then STACK_URL (one trailing slash removed), then the default', async () => {
    setEnv(keyEnv());
    const levels: EnvName[] = ['NEXT_PUBLIC_SERVER_STACK_API_URL', 'NEXT_PUBLIC_STACK_API_URL', 'NEXT_PUBLIC_STACK_URL'];
    for (const [i, winner] of levels.entries()) {
      // the winner points at the service, every lower level (and the browser variable) somewhere unreachable
      setEnv({ NEXT_PUBLIC_BROWSER_STACK_API_URL: dead('browser') });
      for (const lower of levels.slice(i + 1)) setEnv({ [lower]: dead(lower.toLowerCase()) });
      setEnv({ [winner]: `${svc.url}/` });
      const rec = recordingFetch();
      const app = new GatehouseClientApp({ tokenStore: null, browser: null, fetch: rec.fetch });
      expect((await app.getProject()).id).toBe(project.id);
      expect(rec.seen.map((r) => r.url)).toEqual([`${svc.url}/api/v1/projects/current`]);
      setEnv({ [winner]: undefined });
    }
    // nothing set: the library's own default host
    setEnv({ NEXT_PUBLIC_BROWSER_STACK_API_URL: undefined });
    const rec = recordingFetch();
    const app = new GatehouseClientApp({ tokenStore: null, browser: null, fetch: rec.fetch });
    await expect(app.getProject()).rejects.toThrow('request to an unexpected host: http://localhost:8102/api/v1/projects/current');
  });

  test('browser side: the BROWSER variable wins, the SERVER one is ignored', async () => {
    setEnv({
      ...keyEnv(),
      NEXT_PUBLIC_BROWSER_STACK_API_URL: svc.url,
      NEXT_PUBLIC_SERVER_STACK_API_URL: dead('server'),
      NEXT_PUBLIC_STACK_API_URL: dead('api'),
      NEXT_PUBLIC_STACK_URL: dead('url'),
    });
    const browserApp = () => {
      const rec = recordingFetch();
      const app = new GatehouseClientApp({ tokenStore: 'cookie', browser: fakeBrowser('https://app.example.com/'), timers: fakeTimers().timers, fetch: rec.fetch });
      return { app, rec };
    };
    const first = browserApp();
    expect((await first.app.getProject()).id).toBe(project.id);
    expect(first.rec.seen.map((r) => r.url)).toEqual([`${svc.url}/api/v1/projects/current`]);
    // without it a browser falls through to STACK_API_URL, never to the server variable
    setEnv({ NEXT_PUBLIC_BROWSER_STACK_API_URL: undefined });
    const second = browserApp();
    await expect(second.app.getProject()).rejects.toThrow(`request to an unexpected host: ${dead('api')}/api/v1/projects/current`);
  });
});

describe('missing keys (§1.2 messages)', () => {
  test('each app names the variable it needs', () => {
    expect(() => new GatehouseClientApp({ tokenStore: null, publishableClientKey: 'pck' })).toThrow(
      new Error(
        "Welcome to Stack Auth! It seems that you haven't provided a project ID. Please create a project on the Stack dashboard at https://app.stack-auth.com and put it in the NEXT_PUBLIC_STACK_PROJECT_ID environment variable.",
      ),
    );
    expect(() => new GatehouseClientApp({ tokenStore: null, projectId: 'p' })).toThrow(
      new Error(
        "Welcome to Stack Auth! It seems that you haven't provided a publishable client key. Please create a project on the Stack dashboard at https://app.stack-auth.com and put it in the NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY environment variable.",
      ),
    );
    setEnv({ NEXT_PUBLIC_STACK_PROJECT_ID: 'p', NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY: 'pck' });
    expect(() => new GatehouseServerApp({ tokenStore: null })).toThrow(
      new Error('No secret server key provided. Please copy your key from the Stack dashboard and put it in the STACK_SECRET_SERVER_KEY environment variable.'),
    );
    setEnv({ STACK_SECRET_SERVER_KEY: 'ssk' });
    expect(() => new GatehouseAdminApp({ tokenStore: null })).toThrow(
      new Error('No super secret admin key provided. Please copy your key from the Stack dashboard and put it in the STACK_SUPER_SECRET_ADMIN_KEY environment variable.'),
    );
    // an empty variable counts as missing
    setEnv({ STACK_SUPER_SECRET_ADMIN_KEY: '' });
    expect(() => new GatehouseAdminApp({ tokenStore: null })).toThrow('No super secret admin key provided.');
    setEnv({ STACK_SUPER_SECRET_ADMIN_KEY: 'sak' });
    expect(new GatehouseAdminApp({ tokenStore: null }).projectId).toBe('p');
  });
});
