// The demo project (issue 25): created at a start in development with every feature a newcomer tries on; never in
// production, where a demo key left by a development start is revoked. Every owner administers it in development.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { loadConfig } from '../src/config';
import type { Database } from '../src/db';
import { createServices, type Services } from '../src/services';
import { bootstrapDemoProject, demoKeyValid } from '../src/demo-project';
import { DEMO_PROJECT_ID } from '../src/dev-keys';
import { administeredProjectIds } from '../src/projects/ownership';
import * as projects from '../src/repo/projects';
import { listDefinitions } from '../src/repo/permission-definitions';
import { openTestDatabase } from './support/pglite-template';
import { isolatedDatabase } from './support/isolated-database';

setDefaultTimeout(120_000);

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-demo-project-'));
const scratch = await isolatedDatabase();
const database: Database = await openTestDatabase({ databaseUrl: scratch.url, dataDir: join(dir, 'data'), poolSize: 2 });
const opened: Services[] = [];
async function servicesFor(env: Record<string, string>) {
  const services = await createServices(loadConfig({ GATEHOUSE_DATA_DIR: join(dir, 'data'), GATEHOUSE_DEV_OIDC: 'false', ...env }), database);
  opened.push(services);
  return services;
}
// One server secret for both modes: what is sealed at rest (the signing keys' seeds, since issue 29) opens only with
// the secret it was sealed with, and switching modes is not switching secrets.
const SECRET = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex');
const production = { NODE_ENV: 'production', GATEHOUSE_SERVER_SECRET: SECRET };
const development = { NODE_ENV: 'development', GATEHOUSE_SERVER_SECRET: SECRET };
afterAll(async () => {
  for (const s of opened) for (const stop of s.onStop) await stop();
  await database.close();
  await scratch.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the demo project', () => {
  test('production creates nothing; development creates it once with every feature on; production then revokes its public key', async () => {
    const prod = await servicesFor(production);
    expect(await bootstrapDemoProject(prod)).toBe(false);
    expect(await projects.find(prod.db, DEMO_PROJECT_ID)).toBeNull();
    expect(administeredProjectIds({ managedProjectIds: ['p1'] }, prod.config)).toEqual(['p1']);

    const dev = await servicesFor(development);
    expect(await bootstrapDemoProject(dev)).toBe(true);
    expect(await bootstrapDemoProject(dev)).toBe(false);
    const demo = (await projects.find(dev.db, DEMO_PROJECT_ID))!;
    expect(demo.config).toMatchObject({
      credential_enabled: true, magic_link_enabled: true, passkey_enabled: true, client_team_creation_enabled: true, client_user_deletion_enabled: true,
      team_creator_default_permissions: [{ id: 'admin' }], team_member_default_permissions: [{ id: 'member' }],
    });
    expect(demo.config.oauth_providers.map((p) => p.id).sort()).toEqual(['github', 'google', 'microsoft', 'spotify']);
    expect((await listDefinitions(dev.db, DEMO_PROJECT_ID, 'team')).map((d) => d.id).sort()).toEqual(['admin', 'member']);
    expect(await demoKeyValid(dev)).toBe(true);
    // Every owner administers it in development.
    expect(administeredProjectIds({ managedProjectIds: ['p1'] }, dev.config)).toEqual(['p1', DEMO_PROJECT_ID]);
    expect(administeredProjectIds(null, dev.config)).toEqual([DEMO_PROJECT_ID]);

    const later = await servicesFor(production);
    expect(await bootstrapDemoProject(later)).toBe(false);
    expect(await demoKeyValid(later)).toBe(false);
    expect(await demoKeyValid(await servicesFor(development))).toBe(false);
  });
});
