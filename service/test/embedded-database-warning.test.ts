// Production on the embedded database is allowed but never silent (issue 15 §1): NODE_ENV=production with no
// DATABASE_URL prints a warning at start; outside production it does not.
import { afterEach, expect, setDefaultTimeout, test } from 'bun:test';
import { startService, type RunningService } from './support/service';
import { PRODUCTION_ENV } from './support/production';

setDefaultTimeout(60_000);
const WARNING = /Warning: NODE_ENV=production without DATABASE_URL: the embedded database \(PGlite in [^)]+\) is in use\..*Set DATABASE_URL to a PostgreSQL database for production\./;

let svc: RunningService | undefined;
afterEach(async () => { await svc?.stop(); svc = undefined; });

test('NODE_ENV=production without DATABASE_URL warns that the embedded database is in use', async () => {
  svc = await startService({ env: { ...PRODUCTION_ENV, DATABASE_URL: '' } });
  expect(svc.output()).toMatch(WARNING);
  expect((await fetch(`${svc.url}/health`)).status).toBe(200);
});

test('outside production there is no such warning', async () => {
  svc = await startService({ env: { DATABASE_URL: '' } });
  expect(svc.output()).toContain('listening on');
  expect(svc.output()).not.toContain('embedded database');
});
