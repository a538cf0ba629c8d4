// Bounded input (issue 14 §5): a request body limit answering 413 REQUEST_BODY_TOO_LARGE (declared or chunked),
// large enough for a 1,000,000-character profile image; maxLength on free-text fields; a size limit per metadata tier.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { expectKnownError, startService, uniqueEmail, type ApiResponse, type RunningService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { setupSuite } from './support/suite';
import { isolatedDatabase } from './support/isolated-database';

const { svc, p } = await setupSuite();
const MiB = 1024 * 1024;

function expectTooLarge(res: ApiResponse, maxBytes: number) {
  expectKnownError(res, 'REQUEST_BODY_TOO_LARGE', 413);
  expect(res.body).toEqual({ code: 'REQUEST_BODY_TOO_LARGE', details: { max_bytes: maxBytes }, error: `The request body is too large. The maximum is ${maxBytes} bytes.` });
}

function expectSchemaProblem(res: ApiResponse, problem: string) {
  expectKnownError(res, 'SCHEMA_ERROR', 400);
  expect(res.body.error).toContain(`  - ${problem}`);
}

/** A chunked upload (no content-length) of `bytes` bytes of a JSON string. */
async function chunkedPost(url: string, headers: Record<string, string>, bytes: number): Promise<ApiResponse> {
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0) { controller.enqueue(new TextEncoder().encode('{"display_name":"')); sent = 1; return; }
      if (sent >= bytes) { controller.enqueue(new TextEncoder().encode('"}')); controller.close(); return; }
      controller.enqueue(chunk);
      sent += chunk.byteLength;
    },
  });
  const res = await fetch(url, { method: 'PATCH', headers: { ...headers, 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}

describe('request body limit (default 2 MiB)', () => {
  test('a 1,000,000-character profile image data URL fits', async () => {
    const u = await signUp(p);
    const prefix = 'data:image/png;base64,';
    const image = prefix + 'A'.repeat(1_000_000 - prefix.length);
    expect(image.length).toBe(1_000_000);
    const res = await p.client.patch('/users/me', { profile_image_url: image, display_name: 'Ada' }, { accessToken: u.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.profile_image_url).toBe(image);
  });

  test('a 10 MB body answers 413 before it is read, with or without authentication', async () => {
    const big = { display_name: 'x'.repeat(10 * MiB) };
    expectTooLarge(await p.server.patch(`/users/${crypto.randomUUID()}`, big), 2 * MiB);
    expectTooLarge(await p.client.with({ 'x-stack-publishable-client-key': undefined }).post('/auth/password/sign-up', big), 2 * MiB);
  });

  test('a chunked body growing past the limit is cut off with 413', async () => {
    const u = await signUp(p);
    const headers: Record<string, string> = { ...(p.client.headers as Record<string, string>), 'x-stack-access-token': u.accessToken };
    expectTooLarge(await chunkedPost(`${svc.url}/api/v1/users/me`, headers, 3 * MiB), 2 * MiB);
    // A chunked body under the limit goes through.
    const small = await chunkedPost(`${svc.url}/api/v1/users/me`, headers, 100 * 1024);
    expect(small.status).toBe(400); // 100 KiB display name: over maxLength, but read and validated
    expect(small.body.code).toBe('SCHEMA_ERROR');
  });
});

describe('maxLength on free-text fields', () => {
  test('display names, descriptions and the like answer SCHEMA_ERROR past their bound', async () => {
    const long = 'n'.repeat(1001);
    // People's and teams' display names share the limit the account kit's fields use (shared/src/rules/names.ts).
    const longName = 'n'.repeat(101);
    const u = await signUp(p);
    expectSchemaProblem(await p.client.patch('/users/me', { display_name: longName }, { accessToken: u.accessToken }), 'body.display_name must be at most 100 characters');
    expect((await p.client.patch('/users/me', { display_name: 'n'.repeat(100) }, { accessToken: u.accessToken })).status).toBe(200);
    expectSchemaProblem(await p.server.post('/users', { primary_email: uniqueEmail(), display_name: longName }), 'body.display_name must be at most 100 characters');
    expectSchemaProblem(await p.server.post('/teams', { display_name: longName }), 'body.display_name must be at most 100 characters');
    const team = (await p.server.post('/teams', { display_name: 'ok' })).body;
    expectSchemaProblem(await p.server.patch(`/teams/${team.id}`, { display_name: longName }), 'body.display_name must be at most 100 characters');
    expectSchemaProblem(await p.admin.patch('/projects/current', { description: 'd'.repeat(10_001) }), 'body.description must be at most 10000 characters');
    expectSchemaProblem(await p.admin.patch('/projects/current', { display_name: long }), 'body.display_name must be at most 1000 characters');
    expectSchemaProblem(await p.admin.post('/team-permission-definitions', { id: 'p1', description: 'd'.repeat(10_001) }), 'body.description must be at most 10000 characters');
    expectSchemaProblem(await p.admin.post('/internal/api-keys', {
      description: 'd'.repeat(10_001), expires_at_millis: Date.now() + 60_000, has_publishable_client_key: true, has_secret_server_key: false, has_super_secret_admin_key: false,
    }), 'body.description must be at most 10000 characters');
  });
});

describe('metadata size per tier (defaults: client 64 KiB, client read-only and server 256 KiB)', () => {
  test('each tier is measured as JSON and refused past its limit; within it, stored', async () => {
    const u = await signUp(p);
    const blob = (bytes: number) => ({ blob: 'm'.repeat(bytes - 11) }); // {"blob":"..."} = bytes
    expect(JSON.stringify(blob(65_536)).length).toBe(65_536);
    expect((await p.client.patch('/users/me', { client_metadata: blob(65_536) }, { accessToken: u.accessToken })).status).toBe(200);
    expectSchemaProblem(await p.client.patch('/users/me', { client_metadata: blob(65_537) }, { accessToken: u.accessToken }), 'body.client_metadata must be at most 65536 bytes as JSON (got 65537)');
    expectSchemaProblem(await p.server.patch(`/users/${u.userId}`, { client_read_only_metadata: blob(262_145) }), 'body.client_read_only_metadata must be at most 262144 bytes as JSON (got 262145)');
    expectSchemaProblem(await p.server.patch(`/users/${u.userId}`, { server_metadata: blob(262_145) }), 'body.server_metadata must be at most 262144 bytes as JSON (got 262145)');
    expect((await p.server.patch(`/users/${u.userId}`, { server_metadata: blob(262_144) })).status).toBe(200);
    expectSchemaProblem(await p.server.post('/teams', { display_name: 't', client_metadata: blob(65_537) }), 'body.client_metadata must be at most 65536 bytes as JSON (got 65537)');
    // Multi-byte characters count as bytes.
    expectSchemaProblem(await p.client.patch('/users/me', { client_metadata: { s: 'é'.repeat(33_000) } }, { accessToken: u.accessToken }), 'body.client_metadata must be at most 65536 bytes as JSON (got 66008)');
  });
});

describe('the limits are configurable', () => {
  let small: RunningService;
  let q: TestProject;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  beforeAll(async () => {
    db = await isolatedDatabase();
    small = await startService({ env: { GATEHOUSE_MAX_BODY_BYTES: '4096', GATEHOUSE_MAX_CLIENT_METADATA_BYTES: '100', ...(db.url ? { DATABASE_URL: db.url } : {}) } });
    q = await newProject(small);
  }, 120_000);
  afterAll(async () => { await small?.stop(); await db?.drop(); });

  test('GATEHOUSE_MAX_BODY_BYTES and GATEHOUSE_MAX_CLIENT_METADATA_BYTES', async () => {
    const u = await signUp(q);
    expectTooLarge(await q.client.patch('/users/me', { client_metadata: { s: 'x'.repeat(5000) } }, { accessToken: u.accessToken }), 4096);
    expectSchemaProblem(await q.client.patch('/users/me', { client_metadata: { s: 'x'.repeat(100) } }, { accessToken: u.accessToken }), 'body.client_metadata must be at most 100 bytes as JSON (got 108)');
    expect((await q.client.patch('/users/me', { client_metadata: { s: 'x'.repeat(50) } }, { accessToken: u.accessToken })).status).toBe(200);
  });
});
