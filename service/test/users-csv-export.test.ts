// The user list's filters (verified email, password, MFA, signed in within N days) on GET /users and the CSV export
// GET /internal/users/export.csv: the same users, the CSV's columns and escaping, who may export; and, in-process,
// an export of 20,000 users with long names read to the end while the heap stays flat (a page at a time).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { defaultProjectConfig } from '@gatehouse/shared/schemas/projects';
import { loadConfig } from '../src/config';
import { rowsOf, type Database } from '../src/db';
import { createServices, type Services } from '../src/services';
import * as projects from '../src/repo/projects';
import { exportUsersCsv } from '../src/users/csv-export';
import { csvField } from '../src/users/csv';
import { expectKnownError, startService, uniqueEmail, type RunningService } from './support/service';
import { newProject, type TestProject } from './support/projects';
import { openTestDatabase } from './support/pglite-template';
import { isolatedDatabase } from './support/isolated-database';

setDefaultTimeout(180_000);

const schemaMessage = (method: string, path: string, ...lines: string[]) =>
  `Request validation failed on ${method} /api/v1${path}:\n${lines.map((l) => `  - ${l}`).join('\n')}`;

/** Parses the CSV the export writes (quoted fields, doubled quotes, CRLF lines). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; } else field += c;
  }
  return rows;
}

describe('csv fields', () => {
  test('quoted when needed, quotes doubled, formulas defused', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a, "b"\nc')).toBe('"a, ""b""\nc"');
    expect(csvField('=HYPERLINK("https://evil.example")')).toBe('"\'=HYPERLINK(""https://evil.example"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@sum')).toBe("'@sum");
    expect(csvField(null)).toBe('');
    expect(csvField(true)).toBe('true');
  });
});

describe('filters and the export over HTTP', () => {
  let svc: RunningService;
  let p: TestProject;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    svc = await startService();
    p = await newProject(svc, { config: { credential_enabled: true } });
    // verified: a verified email and a password, never signed in.
    ids.verified = (await p.server.post('/users', { primary_email: uniqueEmail('verified'), primary_email_verified: true, password: 'a-long-password-1', display_name: 'Vera' })).body.id;
    // active: signed up with a password (email not verified) and so signed in just now.
    const email = uniqueEmail('active');
    const signUp = await p.client.post('/auth/password/sign-up', { email, password: 'a-long-password-1', verification_callback_url: `${svc.url}/handler/email-verification` });
    expect(signUp.status).toBe(200);
    ids.active = signUp.body.user_id;
    // mfa: TOTP on, no password, no email.
    ids.mfa = (await p.server.post('/users', { display_name: 'Mo', totp_secret_base64: Buffer.from('12345678901234567890').toString('base64') })).body.id;
    // formula: a display name a spreadsheet would run.
    ids.formula = (await p.server.post('/users', { display_name: '=HYPERLINK("https://evil.example"), "x"' })).body.id;
  });
  afterAll(async () => svc?.stop());

  const listed = async (q: string) => {
    const res = await p.server.get(`/users?${q}`);
    expect(res.status).toBe(200);
    return (res.body.items as any[]).map((u) => u.id);
  };
  const exported = async (q: string) => {
    const res = await p.admin.get(`/internal/users/export.csv?${q}`);
    expect(res.status).toBe(200);
    return parseCsv(res.text);
  };
  const named = (...names: string[]) => names.map((n) => ids[n]);

  test('each filter, and two at once, on the list and the export alike', async () => {
    const cases: [string, string[]][] = [
      ['', ['verified', 'active', 'mfa', 'formula']],
      ['email_verified=true', ['verified']],
      ['email_verified=false', ['active', 'mfa', 'formula']],
      ['has_password=true', ['verified', 'active']],
      ['has_password=false', ['mfa', 'formula']],
      ['has_mfa=true', ['mfa']],
      ['has_mfa=false', ['verified', 'active', 'formula']],
      ['signed_in_within_days=1', ['active']],
      ['has_password=true&signed_in_within_days=30', ['active']],
      ['has_mfa=true&has_password=true', []],
    ];
    for (const [q, names] of cases) {
      expect({ q, ids: await listed(q) }).toEqual({ q, ids: named(...names) });
      expect({ q, ids: (await exported(q)).slice(1).map((r) => r[0]) }).toEqual({ q, ids: named(...names) });
    }
    // Newest first and a search, as the list takes them.
    expect((await exported('desc=true')).slice(1).map((r) => r[0])).toEqual(named('formula', 'mfa', 'active', 'verified'));
    expect((await exported('query=Vera')).slice(1).map((r) => r[0])).toEqual(named('verified'));
  });

  test('the CSV: a header line, the columns of each user, formulas defused; a download that is not cached', async () => {
    const res = await p.admin.get('/internal/users/export.csv');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="users.csv"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const rows = parseCsv(res.text);
    expect(rows[0]).toEqual(['id', 'primary_email', 'primary_email_verified', 'display_name', 'has_password', 'has_mfa', 'signed_up_at', 'last_active_at']);
    const user = (await p.server.get(`/users/${ids.verified}`)).body;
    expect(rows[1]).toEqual([ids.verified, user.primary_email, 'true', 'Vera', 'true', 'false', new Date(user.signed_up_at_millis).toISOString(), '']);
    const active = rows.find((r) => r[0] === ids.active)!;
    expect(active[6]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(Date.now() - Date.parse(active[7]!)).toBeLessThan(60_000);
    expect(rows.find((r) => r[0] === ids.mfa)!.slice(4, 6)).toEqual(['false', 'true']);
    expect(rows.find((r) => r[0] === ids.formula)![3]).toBe('\'=HYPERLINK("https://evil.example"), "x"');
    expect(res.text.endsWith('\r\n')).toBe(true);
  });

  test('server keys may export, clients may not; bad filters are schema errors; other projects see none of it', async () => {
    expect((await p.server.get('/internal/users/export.csv')).status).toBe(200);
    expectKnownError(await p.client.get('/internal/users/export.csv'), 'INSUFFICIENT_ACCESS_TYPE', 401);
    const zero = await p.admin.get('/internal/users/export.csv?signed_in_within_days=0');
    expectKnownError(zero, 'SCHEMA_ERROR', 400);
    expect(zero.body.error).toBe(schemaMessage('GET', '/internal/users/export.csv', 'query.signed_in_within_days must be greater than or equal to 1'));
    expectKnownError(await p.server.get('/users?has_mfa=maybe'), 'SCHEMA_ERROR', 400);
    const other = await newProject(svc);
    expect(parseCsv((await other.admin.get('/internal/users/export.csv')).text)).toHaveLength(1);
  });
});

describe('a large export, in-process', () => {
  const USERS = 20_000;
  let dir = '';
  let database: Database;
  let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
  let services: Services;
  let project: projects.Project;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-user-export-'));
    const config = loadConfig({ GATEHOUSE_DATA_DIR: dir, GATEHOUSE_DEV_OIDC: 'false', NODE_ENV: 'test' });
    scratch = await isolatedDatabase();
    database = await openTestDatabase({ databaseUrl: scratch.url, dataDir: config.dataDir, poolSize: 4 });
    services = await createServices(config, database);
    project = await projects.create(services.db, { displayName: 'Export', config: defaultProjectConfig() });
    // 1 KB display names (20 MB of CSV); seven users share each microsecond of sign-up time, so the pages' keyset
    // must tell them apart by id.
    await services.db.execute(sql`insert into users (project_id, display_name, created_at)
      select ${project.id}, 'user ' || i || ' ' || repeat('x', 1000), timestamptz '2026-01-01' + (i / 7) * interval '1 microsecond'
      from generate_series(1, ${USERS}) as i`);
  });
  afterAll(async () => {
    for (const stop of services?.onStop ?? []) await stop();
    await database?.close();
    await scratch?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test(`${USERS} users: every one once, in sign-up order; the heap stays flat while the CSV is read`, async () => {
    const expected = rowsOf<{ id: string }>(await services.db.execute(sql`select id from users where project_id = ${project.id} order by created_at, id`)).map((r) => r.id);
    const heap = () => { Bun.gc(true); return process.memoryUsage().heapUsed; };
    const before = heap();
    let peak = 0;
    let bytes = 0;
    let chunks = 0;
    let rows = 0;
    let outOfOrder = 0;
    for await (const chunk of exportUsersCsv(services, { projectId: project.id, pageRows: 500 })) {
      bytes += chunk.length;
      // Each id is compared as it comes and nothing is kept: a substring would hold its whole chunk alive, and the
      // test would measure its own memory instead of the export's.
      for (const line of chunk.split('\r\n')) {
        if (!line || line.startsWith('id,')) continue;
        if (line.slice(0, 36) !== expected[rows]) outOfOrder++;
        rows++;
      }
      if (++chunks % 5 === 0) peak = Math.max(peak, heap() - before);
    }
    expect(rows).toBe(USERS);
    expect(outOfOrder).toBe(0);
    expect(bytes).toBeGreaterThan(20_000_000);
    // The whole CSV held at once would be 20 MB of text (40 MB as UTF-16 strings) plus the rows it came from.
    expect(peak).toBeLessThan(8_000_000);
    console.log(`export of ${USERS} users: ${(bytes / 1e6).toFixed(1)} MB of CSV in ${chunks} chunks; heap above the start at most ${(peak / 1e6).toFixed(1)} MB`);
  });
});
