// The periodic re-check of verified team domains (domains/team-domains.ts: recheckVerifiedDomains), in-process over
// a database of its own and a real DNS server on loopback: a record still there keeps the domain verified; a record
// that is gone ends the verification; a lookup that fails (no answer) changes nothing; a domain checked recently
// is not looked up again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { defaultProjectConfig } from '@gatehouse/shared/schemas/projects';
import { loadConfig } from '../src/config';
import type { Database } from '../src/db';
import { createServices, type Services } from '../src/services';
import * as projects from '../src/repo/projects';
import { createTeam } from '../src/teams/team-changes';
import { claimTeamDomain, listTeamDomains, recheckVerifiedDomains, verifyTeamDomain } from '../src/domains/team-domains';
import { challengeRecordName, CHALLENGE_PREFIX } from '@gatehouse/shared/rules/email-domains';
import { openTestDatabase } from './support/pglite-template';
import { isolatedDatabase } from './support/isolated-database';
import { startTestDns, type TestDns } from './support/dns';

setDefaultTimeout(120_000);
let dir = '';
let database: Database;
let scratch: Awaited<ReturnType<typeof isolatedDatabase>>;
let services: Services;
let dns: TestDns;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-domain-recheck-'));
  dns = await startTestDns();
  const config = loadConfig({ GATEHOUSE_DATA_DIR: dir, GATEHOUSE_DEV_OIDC: 'false', NODE_ENV: 'test', GATEHOUSE_DNS_SERVERS: dns.address, GATEHOUSE_DOMAIN_RECHECK_HOURS: '24' });
  scratch = await isolatedDatabase();
  database = await openTestDatabase({ databaseUrl: scratch.url, dataDir: config.dataDir, poolSize: 4 });
  services = await createServices(config, database);
});

afterAll(async () => {
  for (const stop of services.onStop) await stop();
  await database.close();
  await scratch.drop();
  await dns.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a gone record ends the verification, a failed lookup does not, a recent check is not repeated', async () => {
  const project = await projects.create(services.db, { displayName: 'Re-check', config: defaultProjectConfig() });
  const team = await createTeam(services, { caller: { type: 'server', project }, fields: { displayName: 'Customer' } });
  const verified = async (domain: string) => {
    const row = await claimTeamDomain(services, { projectId: project.id, teamId: team.id, domain });
    dns.setTxt(challengeRecordName(domain), [CHALLENGE_PREFIX + row.challenge]);
    return verifyTeamDomain(services, { projectId: project.id, teamId: team.id, domainId: row.id });
  };
  const kept = await verified('kept.example');
  const gone = await verified('gone.example');
  const silent = await verified('silent.example');

  // Checked just now: nothing is due.
  expect(await recheckVerifiedDomains(services)).toEqual({ checked: 0, unverified: 0 });

  // A day and a bit later: all three are due. One record was removed, one name stops answering.
  dns.setTxt(challengeRecordName('gone.example'), []);
  dns.dropQueriesFor(challengeRecordName('silent.example'));
  const later = new Date(Date.now() + 25 * 3600_000);
  expect(await recheckVerifiedDomains(services, later)).toEqual({ checked: 3, unverified: 1 });

  const byDomain = new Map((await listTeamDomains(services, { projectId: project.id, teamId: team.id })).map((d) => [d.domain, d]));
  expect(byDomain.get('kept.example')!.verifiedAt).toEqual(kept.verifiedAt);
  expect(byDomain.get('gone.example')!.verifiedAt).toBeNull();
  expect(byDomain.get('gone.example')!.lastCheckProblem).toBe('no TXT record was found at _gatehouse-challenge.gone.example.');
  expect(byDomain.get('silent.example')!.verifiedAt).toEqual(silent.verifiedAt);
  expect(byDomain.get('silent.example')!.lastCheckProblem).toMatch(/^the DNS lookup of _gatehouse-challenge\.silent\.example failed/);
  expect(gone.verifiedAt).not.toBeNull();
});
