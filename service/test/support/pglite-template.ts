// A fresh embedded database for a test, copied from one migrated template instead of created: creating a PGlite
// data directory (initdb in WASM) and applying every migration costs several seconds of CPU, and the suites start
// over a hundred services. The template is built once per set of migrations and PGlite version, by whichever test
// process needs it first (built aside, then renamed into place, so a parallel worker never sees half of one).
// Opening an empty directory stays tested where it is the point (pglite-fast, pglite-worker, read-cache...).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrationsFolder, openDatabase, type Database, type OpenDatabaseOptions } from '../../src/db';

function templateKey(): string {
  const hash = createHash('sha256');
  for (const name of (readdirSync(migrationsFolder, { recursive: true }) as string[]).sort()) {
    const path = join(migrationsFolder, name);
    if (!name.endsWith('.sql') && !name.endsWith('.json')) continue;
    hash.update(name).update(readFileSync(path));
  }
  hash.update(readFileSync(require.resolve('@electric-sql/pglite/package.json')));
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<string> | undefined;

/** The directory of the migrated template (its PGlite data is in `pglite/`, as in a service's data directory). */
export function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = join(tmpdir(), `gatehouse-pglite-template-${templateKey()}`);
    if (existsSync(join(dir, 'pglite', 'PG_VERSION'))) return dir;
    const building = mkdtempSync(join(tmpdir(), 'gatehouse-pglite-template-building-'));
    const database = await openDatabase({ dataDir: building });
    await database.close();
    // Another process may have finished first: its template is as good as this one.
    try { renameSync(building, dir); } catch { rmSync(building, { recursive: true, force: true }); }
    return dir;
  })();
  return template;
}

/** Gives the (empty) service data directory `dataDir` a migrated embedded database. */
export async function seedDataDir(dataDir: string): Promise<void> {
  cpSync(join(await pgliteTemplate(), 'pglite'), join(dataDir, 'pglite'), { recursive: true });
}

/** `openDatabase` for a test: an embedded data directory without a database is first given the migrated template. */
export async function openTestDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  if (!opts.databaseUrl && !existsSync(join(opts.dataDir, 'pglite'))) await seedDataDir(opts.dataDir);
  return openDatabase(opts);
}
