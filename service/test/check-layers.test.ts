// scripts/check-layers.mjs (run by `npm test`): the service's layering rules (docs/architecture.md). Each rule is
// shown to catch a violation in a scratch source tree, and a tree that keeps the rules passes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'bun:test';

const SCRIPT = join(import.meta.dir, '../../scripts/check-layers.mjs');
let root = '';

function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'gatehouse-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The rules whose violations the tests below have seen (each problem ends with its rule's name). */
const failed = new Set<string>();

function check(dir: string): { code: number; output: string } {
  const r = Bun.spawnSync(['node', SCRIPT, dir], { stdout: 'pipe', stderr: 'pipe' });
  const output = r.stdout.toString() + r.stderr.toString();
  for (const m of output.matchAll(/ \[([a-z-]+)\]$/gm)) failed.add(m[1]!);
  return { code: r.exitCode ?? -1, output };
}

// A small service that keeps every rule: a route decodes, calls a use case and encodes with a presenter; the use case
// runs the transaction and emits; repo/ holds the SQL and imports db/; db/ stands alone.
const CLEAN = {
  'db/handle.ts': "import type { PgDatabase } from 'drizzle-orm/pg-core';\nexport type DB = PgDatabase<any, any>;\n",
  'db/index.ts': "import { drizzle } from 'drizzle-orm/pglite';\nexport * as schema from './schema';\nexport type { DB } from './handle';\n",
  'db/schema.ts': "import { pgTable } from 'drizzle-orm/pg-core';\n",
  'repo/users.ts': "import { eq } from 'drizzle-orm';\nimport { schema, type DB } from '../db';\nimport type { ServerUserUpdate } from '@gatehouse/shared/schemas/users';\nexport interface UserRow { id: string }\nexport async function load(db: DB, id: string): Promise<UserRow | null> { return null; }\n",
  'presenters/users.ts': "import type { ServerUser } from '@gatehouse/shared/schemas/users';\nimport type { UserRow } from '../repo/users';\nexport function serverUserView(u: UserRow): ServerUser { return u as never; }\n",
  'auth/sign-in.ts': "import type { DB } from '../db';\nimport * as users from '../repo/users';\n",
  'users/update-user.ts': [
    "import * as users from '../repo/users';",
    "import { serverUserView } from '../presenters/users';",
    "export async function updateUser(services: any, input: any) {",
    "  await services.db.transaction(async (tx: any) => { await services.events.emit(tx, 'p', 'user.updated', serverUserView(input.user)); });",
    '}',
  ].join('\n'),
  'http/route.ts': "import { completeSignIn } from '../auth/sign-in';\n",
  'routes/users.ts': [
    "import { route } from '../http/route';",
    "import type { UserRow } from '../repo/users';",
    "import { type DB } from '../db';",
    "import { updateUser } from '../users/update-user';",
    "import { serverUserView } from '../presenters/users';",
    '// A comment may say transaction( or events.emit( without breaking the rule.',
    "export const r = { handler: async (ctx: any) => serverUserView(await updateUser(ctx.services, { url: 'http://x.example/a' })) }; // not ctx.services.db",
  ].join('\n'),
  'services.ts': "import type { DB } from './db';\nimport { setHsts } from './http/respond';\n",
};

afterEach(() => { if (root) rmSync(root, { recursive: true, force: true }); root = ''; });

describe('check-layers', () => {
  test('a tree that keeps the rules passes', () => {
    const r = check(tree(CLEAN));
    expect(r.output).toContain('check-layers: SQL only in repo/ and db/');
    expect(r.code).toBe(0);
  });

  test('drizzle-orm outside repo/ and db/ fails, naming the file', () => {
    const r = check(tree({ ...CLEAN, 'auth/rate-limits.ts': "import { sql } from 'drizzle-orm';\n" }));
    expect(r.code).toBe(1);
    expect(r.output).toContain('auth/rate-limits.ts: imports drizzle-orm (SQL belongs in repo/ or db/)');
  });

  test('a drizzle-orm sub-path or the schema (directly or through db/index) outside repo/ and db/ fails', () => {
    const r = check(tree({
      ...CLEAN,
      'email/outbox.ts': "import { PgTransaction } from 'drizzle-orm/pg-core';\n",
      'services.ts': "import { type Database, schema } from './db';\n",
      'users/reads.ts': "import { users } from '../db/schema';\n",
    }));
    expect(r.code).toBe(1);
    expect(r.output).toContain('email/outbox.ts: imports drizzle-orm/pg-core');
    expect(r.output).toContain('services.ts: imports the Drizzle schema from ./db');
    expect(r.output).toContain('users/reads.ts: imports the Drizzle schema from ../db/schema');
    expect(r.output).toContain('3 violation(s)');
  });

  test('a module outside http/, routes/ and the root importing http/ or routes/ fails, even for a type', () => {
    const r = check(tree({
      ...CLEAN,
      'oauth/grant.ts': "import { HttpResult } from '../http/respond';\nexport { oauthError } from '../routes/oauth-token';\n",
      'sso/saml.ts': "import type { Auth } from '../http/request-access';\n",
    }));
    expect(r.code).toBe(1);
    expect(r.output).toContain('oauth/grant.ts: imports ../http/respond (only http/, routes/ and the wiring at the root know HTTP)');
    expect(r.output).toContain('oauth/grant.ts: imports ../routes/oauth-token');
    // A new folder is held to the rule without being named anywhere.
    expect(r.output).toContain('sso/saml.ts: imports ../http/request-access');
  });

  test('a route running a transaction, emitting, or using the database handle fails, line by line', () => {
    const r = check(tree({
      ...CLEAN,
      'routes/teams.ts': [
        "import { route } from '../http/route';",
        'export const r = { async handler(ctx: any) {',
        '  await ctx.services.db.transaction(async (tx: any) => {',
        "    await ctx.services.events.emit(tx, 'p', 'team.created', {});",
        "    await queueNotice(tx, ctx.services, ctx.auth.project, { type: 'x' });",
        '    await enqueueTemplatedEmail(tx, {});',
        '  });',
        '  sendQueuedNotices(ctx.services);',
        '  ctx.services.webhookWorkers.wake();',
        '} };',
      ].join('\n'),
    }));
    expect(r.code).toBe(1);
    expect(r.output).toContain('routes/teams.ts:3: runs a transaction (a route calls a use case, which runs it)');
    expect(r.output).toContain('routes/teams.ts:3: reaches the database handle');
    expect(r.output).toContain('routes/teams.ts:4: emits (emit)');
    expect(r.output).toContain('routes/teams.ts:5: emits (queueNotice)');
    expect(r.output).toContain('routes/teams.ts:6: emits (enqueueTemplatedEmail)');
    expect(r.output).toContain('routes/teams.ts:8: emits (sendQueuedNotices)');
    expect(r.output).toContain('routes/teams.ts:9: emits (Workers.wake)');
  });

  test('a route importing repo/ or db/ for more than types fails', () => {
    const r = check(tree({
      ...CLEAN,
      'routes/sessions.ts': "import * as sessions from '../repo/sessions';\nimport { isForeignKeyViolation } from '../db/errors';\nimport { type SessionRow } from '../repo/sessions';\n",
    }));
    expect(r.code).toBe(1);
    expect(r.output).toContain('routes/sessions.ts: imports ../repo/sessions (a route calls a use case; it imports repo/ and db/ for types only)');
    expect(r.output).toContain('routes/sessions.ts: imports ../db/errors');
    expect(r.output).toContain('2 violation(s)');
  });

  test('repo/ importing anything but db/, repo/ and packages fails, a type too', () => {
    const r = check(tree({
      ...CLEAN,
      'repo/activity.ts': "import type { IpInfo } from '../auth/activity';\nimport { hashSecret } from '../tokens/hash';\nimport * as users from './users';\nimport { rowsOf } from '../db';\n",
      'repo/projects.ts': "import type { Services } from '../services';\n",
    }));
    expect(r.code).toBe(1);
    expect(r.output).toContain('repo/activity.ts: imports ../auth/activity (repo/ imports only db/, repo/ and packages)');
    expect(r.output).toContain('repo/activity.ts: imports ../tokens/hash');
    expect(r.output).toContain('repo/projects.ts: imports ../services');
    expect(r.output).toContain('3 violation(s)');
  });

  test('repo/ building an API shape fails: a view function, or a type a presenter returns', () => {
    const r = check(tree({
      ...CLEAN,
      'repo/teams.ts': "import type { ServerTeam } from '@gatehouse/shared/schemas/teams';\nexport function serverTeamView(row: unknown) { return row; }\n",
      'repo/users.ts': "import { type ServerUser, ServerUserUpdate } from '@gatehouse/shared/schemas/users';\nexport async function view(u: unknown) { return u; }\n",
    }));
    expect(r.code).toBe(1);
    expect(r.output).toContain('repo/teams.ts: exports serverTeamView (an API shape: presenters/ build it from repo/ records)');
    expect(r.output).toContain('repo/users.ts: exports view');
    expect(r.output).toContain('repo/users.ts: imports ServerUser from @gatehouse/shared/schemas/users (an API shape: presenters/ build it from repo/ records)');
    // ServerTeam is no presenter's return type in this tree, and a request type is no API shape.
    expect(r.output).not.toContain('imports ServerTeam');
    expect(r.output).not.toContain('imports ServerUserUpdate');
  });

  test('presenters/ importing a use case or repo/ at run time fails', () => {
    const r = check(tree({
      ...CLEAN,
      'presenters/sessions.ts': "import { issueSession } from '../auth/session-tokens';\nimport * as sessions from '../repo/sessions';\nimport type { SessionRow } from '../repo/sessions';\nimport { serverUserView } from './users';\n",
    }));
    expect(r.code).toBe(1);
    expect(r.output).toContain('presenters/sessions.ts: imports ../auth/session-tokens (presenters/ import only presenters/ and repo/ types)');
    expect(r.output).toContain('presenters/sessions.ts: imports ../repo/sessions (presenters/ import only presenters/ and repo/ types)');
    expect(r.output).toContain('2 violation(s)');
  });

  test('db/ importing outside db/ fails; an import cycle in db/ fails even through a type', () => {
    const r = check(tree({
      ...CLEAN,
      'db/read-cache.ts': "import type { DB } from './index';\nimport { log } from '../observability/logger';\n",
      'db/index.ts': "import { drizzle } from 'drizzle-orm/pglite';\nexport * as schema from './schema';\nimport { registerWriteGeneration } from './read-cache';\n",
    }));
    expect(r.code).toBe(1);
    expect(r.output).toContain('db/read-cache.ts: imports ../observability/logger (db/ imports only db/ and packages)');
    expect(r.output).toContain('import cycle in db/ (types included): db/index.ts -> db/read-cache.ts');
  });

  test('a runtime import cycle fails; one closed only by type imports passes', () => {
    const cyclic = check(tree({
      ...CLEAN,
      'auth/activity.ts': "import { writeActivity } from '../users/activity';\nexport const ipInfoOf = 1;\n",
      'users/activity.ts': "import { ipInfoOf } from '../auth/activity';\nexport const writeActivity = 1;\n",
    }));
    expect(cyclic.code).toBe(1);
    expect(cyclic.output).toContain('import cycle at run time: auth/activity.ts -> users/activity.ts');
    rmSync(root, { recursive: true, force: true });
    const typeOnly = check(tree({
      ...CLEAN,
      'auth/activity.ts': "import { writeActivity } from '../users/activity';\nexport type IpInfo = string;\n",
      'users/activity.ts': "import type { IpInfo } from '../auth/activity';\nimport { type IpInfo as Info } from '../auth/activity';\nexport const writeActivity = 1;\n",
    }));
    expect(typeOnly.output).not.toContain('import cycle at');
    expect(typeOnly.code).toBe(0);
  });

  test('every rule docs/architecture.md states is a check, every check is stated there, and each was seen failing above', async () => {
    const { RULES } = await import(SCRIPT);
    // The service's part of the page: the front end's rules (after `## Front end`) are other scripts' checks.
    const page = readFileSync(join(import.meta.dir, '../../docs/architecture.md'), 'utf8').split(/^## Front end$/m)[0]!;
    const stated = [...page.matchAll(/\[check: ([a-z-]+)\]/g)].map((m) => m[1]);
    expect([...new Set(stated)].sort()).toEqual([...RULES].sort());
    expect(stated.length).toBe(RULES.length);
    expect([...failed].sort()).toEqual([...RULES].sort());
  });
});
