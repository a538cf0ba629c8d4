// How many SQL statements the project's OpenID provider runs per token request (issue 27's figures: an
// authorization-code exchange, a refresh grant, userinfo). The service runs in this process, listening, on PGlite
// with a statement counter (db/index.ts `logQuery`); the requests are a real relying party's (openid-client).
// Background timers (activity flushes) are stopped around the counts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { loadConfig } from '../src/config';
import { type Database } from '../src/db';
import { openTestDatabase } from './support/pglite-template';
import { createServices, type Services } from '../src/services';
import { bootstrapInternalProject } from '../src/bootstrap';
import { createApp } from '../src/app';
import type { RunningService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { ALL_SCOPES, CookieJar, discover, followToApplication, issuerUrl, oidc, openAuthorization, registerClient, startAuthorization } from './support/oidc-relying-party';

setDefaultTimeout(120_000);
const REDIRECT = 'https://app.example.com/callback';
let dir = '';
let database: Database;
let services: Services;
let server: { stop(force?: boolean): unknown };
let svc: RunningService;
let statements: string[] | null = null;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-provider-statements-'));
  const config = loadConfig({ GATEHOUSE_DATA_DIR: dir, GATEHOUSE_DEV_OIDC: 'false', NODE_ENV: 'test', GATEHOUSE_RATE_LIMITS: 'off' });
  database = await openTestDatabase({ dataDir: config.dataDir, logQuery: (q) => statements?.push(q) });
  services = await createServices(config, database);
  await bootstrapInternalProject(services);
  await services.activity.stop();
  const app = createApp(services).listen({ port: 0, hostname: '127.0.0.1' });
  server = app.server!;
  config.publicUrl = `http://127.0.0.1:${app.server!.port}`;
  svc = { url: config.publicUrl, output: () => '', stop: async () => {} };
});

afterAll(async () => {
  server.stop(true);
  for (const stop of services.onStop) await stop();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The request's authentication reads (the project, the key, the caller's session) come from caches that can expire
 * between two requests on a loaded machine: they are not the provider's statements.
 */
const AUTHENTICATION_READ = /^\s*select .* from "(api_key_sets|projects)"/;

async function count<T>(what: string, call: () => Promise<T>): Promise<{ result: T; seen: string[] }> {
  statements = [];
  const result = await call();
  await Bun.sleep(100);
  const seen = statements.filter((q) => !AUTHENTICATION_READ.test(q));
  statements = null;
  console.log(`${what}: ${seen.length} statements\n  ${seen.map((q) => q.replace(/\s+/g, ' ').slice(0, 150)).join('\n  ')}`);
  return { result, seen };
}

async function codeFor(project: TestProject, config: oidc.Configuration, accessToken: string) {
  const jar = new CookieJar();
  const start = await startAuthorization(config, REDIRECT, ALL_SCOPES);
  const { interactionId } = await openAuthorization(jar, start);
  const answer = await project.client.post(`/oauth-provider/interactions/${interactionId}`, { allow: true }, { accessToken });
  expect(answer.status).toBe(200);
  return { start, callback: await followToApplication(jar, answer.body.redirect_to, issuerUrl(svc, project.id)) };
}

describe('statements per token request of a project\'s provider', () => {
  test('code exchange, refresh grant and userinfo each read and write only what the protocol needs', async () => {
    const project = await newProject(svc);
    const client = await registerClient(project, { display_name: 'Counted app', client_type: 'confidential', redirect_uris: [REDIRECT] });
    const config = await discover(svc, project.id, client.clientId, client.clientSecret);
    const user = await signUp(project);
    // Warm-up: the provider built, the client and the user read once.
    const warm = await codeFor(project, config, user.accessToken);
    const warmTokens = await oidc.authorizationCodeGrant(config, warm.callback, { pkceCodeVerifier: warm.start.verifier, expectedState: warm.start.state });
    await oidc.refreshTokenGrant(config, warmTokens.refresh_token!);

    const { start, callback } = await codeFor(project, config, user.accessToken);
    // The client's row is kept 2 s (oauth-provider/kept-clients.ts): each counted request follows one that read it,
    // so a loaded machine's slowness between two steps does not count it.
    const touch = (accessToken: string) => oidc.fetchUserInfo(config, accessToken, user.userId);
    await touch(warmTokens.access_token);
    const exchange = await count('authorization-code exchange', () =>
      oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state }));
    expect(exchange.result.refresh_token).toBeString();
    await touch(exchange.result.access_token);
    const refresh = await count('refresh grant', () => oidc.refreshTokenGrant(config, exchange.result.refresh_token!));
    expect(refresh.result.refresh_token).toBeString();
    await touch(refresh.result.access_token);
    const info = await count('userinfo', () => oidc.fetchUserInfo(config, refresh.result.access_token, user.userId));
    expect(info.result.sub).toBe(user.userId);

    // Nothing the provider's settings or keys say is read again per request (they are read when the provider is built),
    // nor the client's row of a burst of requests (oauth-provider/kept-clients.ts).
    for (const { seen } of [exchange, refresh, info]) {
      expect(seen.filter((q) => /from "oauth_provider_(settings|keys|clients)"/.test(q))).toEqual([]);
    }
    // Before (issue 27's figures): 7, 7 and 4, the settings row and the client's read at every request. Now: the code
    // (or refresh token) and its grant; its consumption; the access and refresh tokens saved. Userinfo: the access
    // token and its grant.
    expect(exchange.seen.length).toBeLessThanOrEqual(5);
    expect(refresh.seen.length).toBeLessThanOrEqual(5);
    expect(info.seen.length).toBeLessThanOrEqual(2);
  });
});
