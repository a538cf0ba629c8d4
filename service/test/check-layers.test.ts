// scripts/check-layers.mjs (run by `npm test`): SQL only in repo/ and db/, flow modules free of HTTP. Each rule is
// shown to catch a violation in a scratch source tree, and a tree that keeps the rules passes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

function check(dir: string): { code: number; output: string } {
  const r = Bun.spawnSync(['node', SCRIPT, dir], { stdout: 'pipe', stderr: 'pipe' });
  return { code: r.exitCode ?? -1, output: r.stdout.toString() + r.stderr.toString() };
}

const CLEAN = {
  'db/index.ts': "import { drizzle } from 'drizzle-orm/pglite';\nexport * as schema from './schema';\n",
  'db/schema.ts': "import { pgTable } from 'drizzle-orm/pg-core';\n",
  'repo/users.ts': "import { eq } from 'drizzle-orm';\nimport { schema, type DB } from '../db';\n",
  'auth/sign-in.ts': "import type { DB } from '../db';\nimport * as users from '../repo/users';\n",
  'http/route.ts': "import { completeSignIn } from '../auth/sign-in';\n",
  'routes/users.ts': "import { route } from '../http/route';\nimport * as users from '../repo/users';\n",
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
      'routes/projects.ts': "import { users } from '../db/schema';\n",
    }));
    expect(r.code).toBe(1);
    expect(r.output).toContain('email/outbox.ts: imports drizzle-orm/pg-core');
    expect(r.output).toContain('services.ts: imports the Drizzle schema from ./db');
    expect(r.output).toContain('routes/projects.ts: imports the Drizzle schema from ../db/schema');
    expect(r.output).toContain('3 violation(s)');
  });

  test('a flow module importing http/ or routes/ fails', () => {
    const r = check(tree({
      ...CLEAN,
      'oauth/grant.ts': "import { HttpResult } from '../http/respond';\nexport { oauthError } from '../routes/oauth-token';\n",
      'auth/recent.ts': "import type { Auth } from '../http/request-access';\n",
    }));
    expect(r.code).toBe(1);
    expect(r.output).toContain('oauth/grant.ts: imports ../http/respond (flow modules know nothing of HTTP)');
    expect(r.output).toContain('oauth/grant.ts: imports ../routes/oauth-token (flow modules know nothing of HTTP)');
    expect(r.output).toContain('auth/recent.ts: imports ../http/request-access (flow modules know nothing of HTTP)');
  });

  test('the DB type from db/ is allowed everywhere; routes may import http/', () => {
    const r = check(tree({ ...CLEAN, 'teams/check.ts': "import type { DB } from '../db';\nimport { rowsOf } from '../db';\n" }));
    expect(r.code).toBe(0);
  });
});
