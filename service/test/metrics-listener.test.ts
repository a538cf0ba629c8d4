// Issue 30 §6: the Prometheus listener bound to HOST (0.0.0.0 by default) with no authentication, and every scrape
// queried the database. It binds to 127.0.0.1 unless GATEHOUSE_METRICS_HOST says otherwise, takes an optional bearer
// token (GATEHOUSE_METRICS_TOKEN), and serves the database figures from a cache refreshed at most every few seconds.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config';
import type { Database } from '../src/db';
import { startMetricsServer } from '../src/observability/metrics';
import { openTestDatabase } from './support/pglite-template';
import { isolatedDatabase } from './support/isolated-database';

const TOKEN = 'metrics-bearer-token-0123456789';
let dir: string;
let database: Database;
let queries: string[] = [];
let server: ReturnType<typeof startMetricsServer>;

let scratch: Awaited<ReturnType<typeof isolatedDatabase>> | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-metrics-'));
  // Under DATABASE_URL, a PostgreSQL database of its own.
  scratch = await isolatedDatabase();
  database = await openTestDatabase({ databaseUrl: scratch.url, dataDir: dir, logQuery: (q) => queries.push(q) });
  server = startMetricsServer(database.db, { port: 0, hostname: '127.0.0.1', token: TOKEN });
});
afterAll(async () => {
  server?.stop(true);
  await database?.close();
  await scratch?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const scrape = (authorization?: string) => fetch(`http://127.0.0.1:${server.port}/metrics`, { headers: authorization ? { authorization } : {} });

describe('the metrics listener', () => {
  test('binds to 127.0.0.1 unless told otherwise; the token is read from the environment', () => {
    expect(loadConfig({}).metrics).toEqual({ port: undefined, hostname: '127.0.0.1', token: undefined });
    expect(loadConfig({ GATEHOUSE_METRICS_PORT: '9464', HOST: '0.0.0.0' }).metrics).toEqual({ port: 9464, hostname: '127.0.0.1', token: undefined });
    expect(loadConfig({ GATEHOUSE_METRICS_PORT: '9464', GATEHOUSE_METRICS_HOST: '0.0.0.0', GATEHOUSE_METRICS_TOKEN: TOKEN }).metrics)
      .toEqual({ port: 9464, hostname: '0.0.0.0', token: TOKEN });
    expect(() => loadConfig({ GATEHOUSE_METRICS_TOKEN: 'short' })).toThrow('GATEHOUSE_METRICS_TOKEN');
    expect(server.hostname).toBe('127.0.0.1');
  });

  test('without the bearer token, or with a wrong one, 401 and no figures', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN, 'Bearer ']) {
      const res = await scrape(authorization);
      expect({ authorization, status: res.status }).toEqual({ authorization, status: 401 });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.text()).not.toContain('gatehouse_');
    }
  });

  test('20 scrapes in a row read the database once: its figures are cached for a few seconds', async () => {
    queries = [];
    const texts: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await scrape(`Bearer ${TOKEN}`);
      expect(res.status).toBe(200);
      texts.push(await res.text());
    }
    expect(texts.every((t) => t.includes('# TYPE gatehouse_email_outbox gauge') && t.includes('gatehouse_email_failed_attempts 0'))).toBe(true);
    // One refresh: the outbox, the failed attempts and the webhook deliveries.
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.length).toBeLessThanOrEqual(3);
  });
});
