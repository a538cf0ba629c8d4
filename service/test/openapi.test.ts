// The OpenAPI document served at /api/v1/openapi.json (issue 15 §3): valid OpenAPI 3.1 by two independent tools
// (@redocly/cli lint with its recommended rules: 0 errors; @apidevtools/swagger-parser), one security scheme per
// x-stack-* key/token header with each operation's security following its access types, named schemas,
// operationIds, redirects as redirects, and per-route known errors that match what the service answers.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { knownErrorByCode } from '@gatehouse/shared/known-errors';
import { DEV_KEYS, clientApi, sharedService, uniqueEmail, type SharedService } from './support/service';

setDefaultTimeout(60_000);
const REPO = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-openapi-'));
let svc: SharedService;
let doc: any;
beforeAll(async () => {
  svc = await sharedService();
  const res = await fetch(`${svc.url}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  doc = await res.json();
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const operations = () => Object.entries(doc.paths as Record<string, Record<string, any>>)
  .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
const op = (method: string, path: string) => doc.paths[path][method];

describe('validity', () => {
  test('@redocly/cli lint (recommended rules): 0 errors', async () => {
    const proc = Bun.spawn(['node', join(REPO, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', join(dir, 'openapi.json'), '--format=json', '--max-problems=10000'],
      { cwd: dir, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
    const out = await new Response(proc.stdout).text();
    await proc.exited;
    const problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] = JSON.parse(out).problems;
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  test('@apidevtools/swagger-parser validates it', async () => {
    const api = await SwaggerParser.validate(join(dir, 'openapi.json')) as any;
    expect(api.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(api.paths)).toContain('/');
  });
});

describe('contents', () => {
  test('one security scheme per x-stack-* key or token header', () => {
    const headers = Object.values(doc.components.securitySchemes as Record<string, any>).map((s) => `${s.type} ${s.in} ${s.name}`).sort();
    expect(headers).toEqual([
      'apiKey header x-stack-access-token', 'apiKey header x-stack-admin-access-token', 'apiKey header x-stack-publishable-client-key',
      'apiKey header x-stack-refresh-token', 'apiKey header x-stack-secret-server-key', 'apiKey header x-stack-super-secret-admin-key',
    ]);
  });

  test("each operation's security follows its access types", () => {
    const schemesOf = (o: any) => [...new Set((o.security as Record<string, string[]>[]).flatMap((r) => Object.keys(r)))].sort();
    // Admin only: the admin key or the owner's admin access token, nothing else.
    expect(schemesOf(op('post', '/internal/api-keys'))).toEqual(['adminAccessToken', 'superSecretAdminKey']);
    expect(op('post', '/internal/api-keys').parameters.find((p: any) => p.name === 'x-stack-access-type').schema.enum).toEqual(['admin']);
    // Client and server: their keys, with or without a user's access token.
    const me = op('get', '/users/me');
    expect(me.security).toContainEqual({ publishableClientKey: [], accessToken: [] });
    expect(me.security).toContainEqual({ secretServerKey: [], accessToken: [] });
    // The refresh route carries the refresh token.
    expect(op('post', '/auth/sessions/current/refresh').security).toContainEqual({ publishableClientKey: [], refreshToken: [] });
    // Optional authentication: an empty requirement first.
    expect(op('get', '/').security[0]).toEqual({});
    for (const { op: o } of operations()) expect(o.security.length).toBeGreaterThan(0);
  });

  test('unique operationIds, named component schemas, redirects as 307 (protocol-auth §1)', () => {
    const ids = operations().map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(op('post', '/auth/password/sign-up').operationId).toBe('postAuthPasswordSignUp');
    for (const name of ['ClientUser', 'ServerUser', 'AdminProject', 'KnownError', 'PostAuthPasswordSignUpRequest']) expect(doc.components.schemas[name]).toBeDefined();
    expect(op('get', '/users/me').responses['200'].content['application/json'].schema).toEqual({
      anyOf: [{ $ref: '#/components/schemas/ClientUser' }, { $ref: '#/components/schemas/ServerUser' }],
    });
    const authorize = op('get', '/auth/oauth/authorize/{provider_id}').responses;
    expect(authorize['307'].headers.location).toBeDefined();
    expect(authorize['200']).toBeUndefined();
  });

  test('known-error responses carry catalogue codes with their catalogue status', () => {
    for (const { op: o } of operations()) {
      for (const [status, r] of Object.entries(o.responses as Record<string, any>)) {
        if (Number(status) < 400) continue;
        const codes: string[] = r.content['application/json'].schema.allOf[1].properties.code.enum;
        for (const code of codes) expect({ code, status: knownErrorByCode.get(code)?.status }).toEqual({ code, status: Number(status) });
      }
    }
  });

  test("errors the service answers are among the ones its route documents", async () => {
    const client = clientApi(svc.url, DEV_KEYS.projectId, DEV_KEYS.publishableClientKey);
    const documented = (method: string, path: string, status: number) => op(method, path).responses[String(status)]?.content['application/json'].schema.allOf[1].properties.code.enum ?? [];
    const email = uniqueEmail('openapi');
    const cases: [string, string, Promise<{ status: number; body: any }>][] = [
      ['post', '/auth/password/sign-up', client.post('/auth/password/sign-up', { email, password: 'x' })],
      ['post', '/auth/password/sign-up', client.post('/auth/password/sign-up', { email: 'not an email', password: 'correct-horse-1' })],
      ['post', '/auth/password/sign-in', client.post('/auth/password/sign-in', { email, password: 'wrong-password-1' })],
      ['get', '/users/me', client.get('/users/me')],
      ['get', '/users/me', client.get('/users/me', { accessToken: 'not-a-jwt' })],
      ['post', '/internal/api-keys', client.post('/internal/api-keys', {})],
      ['get', '/users/me', client.with({ 'x-stack-publishable-client-key': 'wrong' }).get('/users/me')],
    ];
    for (const [method, path, pending] of cases) {
      const res = await pending;
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect({ path, code: res.body.code, listed: documented(method, path, res.status).includes(res.body.code) }).toEqual({ path, code: res.body.code, listed: true });
    }
  });
});
