// Rotating the server secret without signing anyone out (issue 29): the new secret in GATEHOUSE_SERVER_SECRET, the old
// one in GATEHOUSE_SERVER_SECRET_PREVIOUS. The signing keys are records sealed with the secret (tokens/keys.ts), not
// derived from it: the key does not change, so tokens the old secret's start signed keep verifying, the JWKS stays the
// same, sealed secrets (signing key seeds among them) still open, and a background pass re-seals them, so that the
// next start without the previous secret loses nothing. Three real services in turn, on one embedded database. (A
// database upgraded with a key derived from the secret: signing-keys.test.ts.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { decodeProtectedHeader } from 'jose';
import { Api, startService, uniqueEmail, type StartedService } from './support/service';
import { newProject } from './support/projects';

setDefaultTimeout(180_000);
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-rotation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OLD = 'old-server-secret-0123456789abcdef0123456789abcdef';
const NEW = 'new-server-secret-fedcba9876543210fedcba9876543210';
const GITHUB_SECRET = 'github-client-secret-kept-sealed';

async function withService<T>(env: Record<string, string>, run: (svc: StartedService) => Promise<T>): Promise<T> {
  // The embedded database always: the re-seal pass rewrites every project it finds, which on a shared PostgreSQL
  // would be other tests' projects (the file is left out of CI's PostgreSQL run).
  const svc = await startService({ env: { DATABASE_URL: '', GATEHOUSE_DATA_DIR: dir, ...env } });
  try { return await run(svc); } finally { await svc.stop(); }
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid;

describe('server secret rotation', () => {
  test('old tokens verify, sessions refresh on the same key, sealed secrets open and are re-sealed; then the old secret can go', async () => {
    // Before: everything made under the old secret.
    const made = await withService({ GATEHOUSE_SERVER_SECRET: OLD }, async (svc) => {
      const p = await newProject(svc, { config: { oauth_providers: [{ id: 'github', type: 'standard', enabled: true, client_id: 'gh-client', client_secret: GITHUB_SECRET }] } });
      const res = await p.client.post('/auth/password/sign-up', { email: uniqueEmail('rotation'), password: 'correct-horse-1' });
      expect(res.status).toBe(200);
      const endpoint = await p.admin.post('/webhooks/endpoints', { url: 'https://hooks.example.com/in' });
      expect(endpoint.status).toBe(201);
      // The project's OpenID provider (issue 27) makes and seals its keys on first use.
      const oidcKids = (await fetch(`${svc.url}/oidc/${p.id}/jwks`).then((r) => r.json())).keys.map((k: { kid: string }) => k.kid);
      expect(oidcKids).toHaveLength(2);
      return { p, accessToken: res.body.access_token as string, refreshToken: res.body.refresh_token as string, oidcKids };
    });
    const headers = (svc: StartedService, token: string) => new Api(svc.url, { ...made.p.client.headers, 'x-stack-access-token': token });
    const oldKid = kidOf(made.accessToken);

    // During: the new secret, the old one as previous.
    const refreshed = await withService({ GATEHOUSE_SERVER_SECRET: NEW, GATEHOUSE_SERVER_SECRET_PREVIOUS: OLD }, async (svc) => {
      expect((await headers(svc, made.accessToken).get('/users/me')).status).toBe(200);
      const jwks = await fetch(`${svc.url}/api/v1/projects/${made.p.id}/.well-known/jwks.json`).then((r) => r.json());
      expect(jwks.keys.map((k: { kid: string }) => k.kid)).toContain(oldKid);
      // The current key and the next one.
      expect(jwks.keys).toHaveLength(2);
      const next = await new Api(svc.url, made.p.client.headers).post('/auth/sessions/current/refresh', {}, { refreshToken: made.refreshToken });
      expect(next.status).toBe(200);
      const token = next.body.access_token as string;
      expect(kidOf(token)).toBe(oldKid);
      expect(jwks.keys[0].kid).toBe(kidOf(token));
      const project = await new Api(svc.url, made.p.admin.headers).get('/projects/current');
      expect(project.body.config.oauth_providers.find((o: { id: string }) => o.id === 'github').client_secret).toBe(GITHUB_SECRET);
      for (let i = 0; !/\[secrets\] re-sealed/.test(svc.output()); i++) {
        if (i > 200) throw new Error(`no re-seal pass:\n${svc.output()}`);
        await Bun.sleep(100);
      }
      expect(svc.output()).toContain('1 project configs');
      expect(svc.output()).toContain('1 webhook secrets');
      expect(svc.output()).toContain('2 signing keys');
      expect(svc.output()).toContain('2 OpenID provider keys');
      return token;
    });

    // After: the new secret alone. The re-sealed key still signs and verifies: even the first access token works.
    await withService({ GATEHOUSE_SERVER_SECRET: NEW }, async (svc) => {
      expect((await headers(svc, made.accessToken).get('/users/me')).status).toBe(200);
      expect((await headers(svc, refreshed).get('/users/me')).status).toBe(200);
      const project = await new Api(svc.url, made.p.admin.headers).get('/projects/current');
      expect(project.status).toBe(200);
      expect(project.body.config.oauth_providers.find((o: { id: string }) => o.id === 'github').client_secret).toBe(GITHUB_SECRET);
      const jwks = await fetch(`${svc.url}/api/v1/projects/${made.p.id}/.well-known/jwks.json`).then((r) => r.json());
      expect(jwks.keys).toHaveLength(2);
      expect(jwks.keys[0].kid).toBe(oldKid);
      const oidcJwks = await fetch(`${svc.url}/oidc/${made.p.id}/jwks`).then((r) => r.json());
      expect(oidcJwks.keys.map((k: { kid: string }) => k.kid)).toEqual(made.oidcKids);
    });
  });

  test('GATEHOUSE_SERVER_SECRET_PREVIOUS without GATEHOUSE_SERVER_SECRET stops the start, naming both', async () => {
    const error = await startService({ env: { DATABASE_URL: '', GATEHOUSE_SERVER_SECRET_PREVIOUS: OLD }, startTimeoutMs: 20_000 }).then(async (s) => { await s.stop(); return null; }, (e: Error) => e);
    expect(error?.message).toContain('Gatehouse cannot start: GATEHOUSE_SERVER_SECRET_PREVIOUS: set GATEHOUSE_SERVER_SECRET too');
  });
});
