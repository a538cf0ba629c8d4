// A service of the test's own whose database the test may read and change directly (for what no endpoint
// shows or sets: secrets at rest, an invitation's expiry). Under DATABASE_URL the database is a scratch
// PostgreSQL database, opened next to the running service. On PGlite the service owns its data directory
// exclusively, so the service is stopped while the test holds the database, then started again on the same
// directory and port (URLs, keys and access tokens the test holds stay valid).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type DB } from '../../src/db/index';
import { isolatedDatabase } from './isolated-database';
import { startService, type RunningService } from './service';

export interface ServiceWithDatabase {
  readonly url: string;
  /** Everything the current service process printed so far. */
  output(): string;
  /** Runs `fn` with the service's database (the service may be stopped meanwhile on PGlite). */
  withDatabase<T>(fn: (db: DB) => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

export async function startServiceWithDatabase(env: Record<string, string> = {}): Promise<ServiceWithDatabase> {
  const scratch = await isolatedDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-direct-'));
  const serviceEnv: Record<string, string> = { ...env, ...(scratch.url ? { DATABASE_URL: scratch.url } : { GATEHOUSE_DATA_DIR: dataDir }) };
  let svc: RunningService = await startService({ env: serviceEnv });
  const url = svc.url;
  return {
    url,
    output: () => svc.output(),
    async withDatabase(fn) {
      if (scratch.url) {
        const database = await openDatabase({ databaseUrl: scratch.url, dataDir, poolSize: 1 });
        try { return await fn(database.db); } finally { await database.close(); }
      }
      await svc.stop();
      try {
        const database = await openDatabase({ dataDir });
        try { return await fn(database.db); } finally { await database.close(); }
      } finally {
        svc = await startService({ env: { ...serviceEnv, PORT: new URL(url).port } });
        if (svc.url !== url) throw new Error(`the restarted service listens on ${svc.url}, not ${url}`);
      }
    },
    async stop() {
      await svc.stop();
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
