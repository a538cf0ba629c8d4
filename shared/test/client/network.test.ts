// Retry loop and fault handling through a real local HTTP server (client-library §4).
import { afterEach, describe, expect, test } from 'bun:test';
import { GatehouseClientApp, GatehouseServerApp, HttpError, NetworkError } from '../../src/client/index.ts';
import { KnownError, KnownErrors } from '../../src/known-errors.ts';
import { fakeTimers, knownErrorResponse, localServer, TEST_KEYS } from './support.ts';

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
});

function setup(handler: Parameters<typeof localServer>[0], opts: { random?: number; onLine?: boolean } = {}) {
  const server = localServer(handler);
  stops.push(server.stop);
  const ft = fakeTimers({ random: opts.random ?? 0.5 });
  const warnings: string[] = [];
  const app = new GatehouseClientApp({
    ...TEST_KEYS,
    baseUrl: server.url,
    tokenStore: 'memory',
    browser: null,
    timers: ft.timers,
    logger: { warn: (m: unknown) => warnings.push(String(m)) },
  });
  return { server, ft, app, warnings };
}

const project = { id: 'proj-test', display_name: 'P', config: { enabled_oauth_providers: [] } };
const send = (app: GatehouseClientApp, path = '/projects/current', method = 'GET') =>
  app._core.json(path, { method, body: method === 'GET' ? undefined : {} }, null, 'client');

describe('request composition', () => {
  test('sends the x-stack headers, a fresh 45-char Crockford nonce per request, and no cookies', async () => {
    const { server, app } = setup(() => Response.json(project));
    await app.getProject();
    await app.getProject();
    const [a, b] = server.requests;
    expect(a!.headers.get('x-stack-override-error-status')).toBe('true');
    expect(a!.headers.get('x-stack-project-id')).toBe('proj-test');
    expect(a!.headers.get('x-stack-access-type')).toBe('client');
    expect(a!.headers.get('x-stack-publishable-client-key')).toBe('pck_test');
    expect(a!.headers.get('x-stack-client-version')).toMatch(/^\w+ @\w+\/\w+@[\d.]+$/);
    expect(a!.headers.get('x-stack-secret-server-key')).toBeNull();
    expect(a!.headers.get('cookie')).toBeNull();
    const nonce = a!.headers.get('x-stack-random-nonce')!;
    expect(nonce).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    expect(b!.headers.get('x-stack-random-nonce')).not.toBe(nonce);
    expect(a!.path).toBe('/api/v1/projects/current');
  });

  test('server apps add the secret key and use access type server; extra headers override', async () => {
    const server = localServer(() => Response.json({ items: [], is_paginated: false }));
    stops.push(server.stop);
    const app = new GatehouseServerApp({ ...TEST_KEYS, baseUrl: server.url + '/', tokenStore: null, extraRequestHeaders: { 'x-extra': '1' } });
    await app.listTeams();
    const r = server.requests[0]!;
    expect(r.path).toBe('/api/v1/teams');
    expect(r.headers.get('x-stack-access-type')).toBe('server');
    expect(r.headers.get('x-stack-secret-server-key')).toBe('ssk_test');
    expect(r.headers.get('x-extra')).toBe('1');
  });
});

describe('status rewriting and known errors', () => {
  test('x-stack-actual-status turns a 200 into the real error', async () => {
    const { app } = setup(() => new Response('Client can only list teams for their own user.', { status: 200, headers: { 'x-stack-actual-status': '403' } }));
    const err = await send(app).catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(403);
    expect(err.message).toBe(`Failed to send request to ${app._core.api.urlFor('/projects/current')}: 403 Client can only list teams for their own user.`);
  });

  test('known errors decode into the typed class with details, and are not retried', async () => {
    const { app, server, ft } = setup(() => knownErrorResponse('TEAM_NOT_FOUND', 404, 'Team x not found.', { team_id: 'x' }));
    const err = await send(app).catch((e) => e);
    expect(err).toBeInstanceOf(KnownErrors.TeamNotFound);
    expect(err).toBeInstanceOf(KnownError);
    expect(err.details).toEqual({ team_id: 'x' });
    expect(err.statusCode).toBe(404);
    expect(server.requests.length).toBe(1);
    expect(ft.sleeps).toEqual([]);
  });

  test('errors without details decode (BODY_PARSING_ERROR, PASSKEY_*); unknown codes need a newer version', async () => {
    let code = 'PASSKEY_AUTHENTICATION_FAILED';
    const { app } = setup(() => knownErrorResponse(code, 400, 'Passkey not found'));
    const err = await send(app).catch((e) => e);
    expect(err).toBeInstanceOf(KnownErrors.PasskeyAuthenticationFailed);
    expect(err.message).toBe('Passkey not found');
    code = 'SOMETHING_FROM_THE_FUTURE';
    const unknown = await send(app).catch((e) => e);
    expect(unknown.message).toStartWith('Unknown KnownError code. You may need to update your version of');
    expect(unknown.message).toContain('SOMETHING_FROM_THE_FUTURE: Passkey not found');
  });

  test('header/body code mismatch is rejected', async () => {
    const { app } = setup(() => Response.json({ code: 'A', error: 'x' }, { headers: { 'x-stack-known-error': 'B', 'x-stack-actual-status': '400' } }));
    await expect(send(app)).rejects.toThrow("Mismatch between x-stack-known-error header and error code in body; the server's response is invalid");
  });
});

describe('retries', () => {
  test('429 with Retry-After waits that long plus the back-off, then succeeds', async () => {
    const { app, server, ft, warnings } = setup((_r, { count }) =>
      count <= 2 ? new Response('slow down', { status: 200, headers: { 'x-stack-actual-status': '429', 'retry-after': '3' } }) : Response.json(project),
    );
    await app.getProject();
    expect(server.requests.length).toBe(3);
    expect(ft.sleeps).toEqual([3000, 1000, 3000, 2000]);
    expect(warnings[0]).toBe(`Rate limited while sending request to ${server.url}/api/v1/projects/current. Will retry after 3 seconds...`);
  });

  test('429 without (or with a non-numeric) Retry-After uses only the back-off', async () => {
    const { app, server, ft, warnings } = setup((_r, { count }) =>
      count === 1 ? new Response('', { status: 429 }) : count === 2 ? new Response('', { status: 429, headers: { 'retry-after': 'soon' } }) : Response.json(project),
    );
    await app.getProject();
    expect(server.requests.length).toBe(3);
    expect(ft.sleeps).toEqual([1000, 2000]);
    expect(warnings.every((w) => w.endsWith('no retry-after header received. Retrying...'))).toBe(true);
  });

  test('508 INFINITE_LOOP_DETECTED is retried; other 5xx are thrown at once', async () => {
    const { app, server } = setup((_r, { count }) => (count === 1 ? new Response('INFINITE_LOOP_DETECTED', { status: 508 }) : Response.json(project)));
    await app.getProject();
    expect(server.requests.length).toBe(2);
    const other = setup(() => new Response('boom', { status: 500 }));
    await expect(send(other.app)).rejects.toThrow(': 500 boom');
    expect(other.server.requests.length).toBe(1);
  });

  test('exactly 5 attempts with back-off (0.5–1.5) × 1000 × 2^i, then the diagnostics error', async () => {
    for (const [random, expected] of [
      [0, [500, 1000, 2000, 4000]],
      [0.5, [1000, 2000, 4000, 8000]],
      [0.999, [1499, 2998, 5996, 11992]],
    ] as const) {
      const { app, server, ft } = setup(() => new Response('', { status: 429 }), { random });
      const err = await send(app).catch((e) => e);
      expect(server.count('GET', '/api/v1/projects/current')).toBe(5);
      expect(ft.sleeps.map(Math.round)).toEqual([...expected]);
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.message).toStartWith('Stack Auth is unable to connect to the server. Please check your internet connection and try again.\n\nIf the problem persists');
      // the diagnostics probe the API root and the origin's /health on the same (local) server, nothing else
      expect(err.diagnostics).toMatchObject({ apiRoot: '429 Too Many Requests: ', baseUrlBackend: '429 Too Many Requests: ', cfTrace: 'Not tested' });
      expect(server.requests.slice(5).map((r) => r.path)).toEqual(['/api/v1', '/health']);
    }
  });

  test('offline browsers get the offline error instead', async () => {
    const server = localServer(() => new Response('', { status: 429 }));
    stops.push(server.stop);
    const ft = fakeTimers();
    const app = new GatehouseClientApp({
      ...TEST_KEYS,
      baseUrl: server.url,
      tokenStore: 'memory',
      timers: ft.timers,
      logger: { warn() {} },
      browser: { document: { cookie: '' }, location: { href: 'https://a.test/', hostname: 'a.test', assign() {}, replace() {} }, navigator: { onLine: false } },
    });
    await expect(send(app)).rejects.toThrow('It seems like you are offline');
  });

  test('dropped connections: idempotent methods are retried 5 times, POST/PATCH fail at once', async () => {
    let drops = 0;
    const tcp = Bun.listen({
      hostname: '127.0.0.1',
      port: 0,
      socket: {
        open(s) {
          drops++;
          s.end();
        },
        data() {},
      },
    });
    stops.push(() => tcp.stop(true));
    const ft = fakeTimers();
    const app = new GatehouseClientApp({ ...TEST_KEYS, baseUrl: `http://127.0.0.1:${tcp.port}`, tokenStore: 'memory', browser: null, timers: ft.timers });
    const err = await send(app, '/teams?user_id=me', 'GET').catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(ft.sleeps).toEqual([1000, 2000, 4000, 8000]);
    expect(drops).toBe(5 + 2); // 5 attempts + 2 diagnostics probes
    drops = 0;
    for (const method of ['DELETE', 'PUT']) {
      await expect(send(app, '/x', method)).rejects.toBeInstanceOf(NetworkError);
    }
    expect(drops).toBe(2 * 7);
    drops = 0;
    for (const method of ['POST', 'PATCH']) {
      const e = await send(app, '/x', method).catch((x) => x);
      expect(e).toBeInstanceOf(NetworkError);
      expect(e.message).toContain('Failed to send Stack network request');
    }
    expect(drops).toBe(2);
  });

  test('a slow server is waited for (no client-side timeout); a failure then recovery succeeds', async () => {
    const { app, server, ft } = setup(async (_r, { count }) => {
      if (count === 1) return new Response('', { status: 429 });
      await Bun.sleep(300);
      return Response.json(project);
    });
    const started = Date.now();
    const p = await app.getProject();
    expect(p.id).toBe('proj-test');
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(server.requests.length).toBe(2);
    expect(ft.sleeps).toEqual([1000]);
  });

  test('with the default timers the back-off really waits (first retry 500–1500 ms)', async () => {
    // With the real clock the first back-off is 500–1500 ms; one retry is affordable in a test.
    const server = localServer((_r, { count }) => (count === 1 ? new Response('', { status: 429 }) : Response.json(project)));
    stops.push(server.stop);
    const app = new GatehouseClientApp({ ...TEST_KEYS, baseUrl: server.url, tokenStore: 'memory', browser: null, logger: { warn() {} } });
    const started = Date.now();
    await app.getProject();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(490);
    expect(elapsed).toBeLessThan(10_000); // generous: the machine may be loaded
  });
});
