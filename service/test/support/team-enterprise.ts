// A service whose DNS lookups go to a loopback DNS server of the test's own (support/dns.ts), for verified team
// domains and SCIM; and a team with a domain verified through it, the way an owner does it.
import { expect } from 'bun:test';
import { sharedService, startService, type RunningService } from './service';
import { isolatedDatabase } from './isolated-database';
import { startTestDns, type TestDns } from './dns';
import type { TestProject } from './projects';
import { serverCreateTeam } from './teams';

export interface ServiceWithDns { svc: RunningService; dns: TestDns; stop(): Promise<void> }

/** The shared service of the test process (it has a DNS server of its own); stopping it is left to the process. */
export async function sharedServiceWithDns(): Promise<ServiceWithDns> {
  const svc = await sharedService();
  return { svc, dns: svc.dns, stop: async () => {} };
}

/** A service of the test's own, for tests that need other settings (`env`). */
export async function startServiceWithDns(env: Record<string, string> = {}): Promise<ServiceWithDns> {
  const dns = await startTestDns();
  const db = await isolatedDatabase();
  const svc = await startService({ env: { GATEHOUSE_DNS_SERVERS: dns.address, ...(db.url ? { DATABASE_URL: db.url } : {}), ...env } });
  return { svc, dns, stop: async () => { await svc.stop(); await dns.close(); await db.drop(); } };
}

/** A new team of the project with `domain` claimed and verified (its TXT record published on the test DNS). */
export async function teamWithVerifiedDomain(p: TestProject, dns: TestDns, domain: string): Promise<{ teamId: string; domainId: string }> {
  const team = await serverCreateTeam(p, { display_name: `Customer ${domain}` });
  const claimed = await p.server.post(`/teams/${team.id}/domains`, { domain });
  expect(claimed.status).toBe(201);
  dns.setTxt(claimed.body.txt_record.name, [claimed.body.txt_record.value]);
  const verified = await p.server.post(`/teams/${team.id}/domains/${claimed.body.id}/verify`);
  expect(verified.status).toBe(200);
  expect(verified.body.status).toBe('verified');
  return { teamId: team.id, domainId: claimed.body.id };
}

/** A domain no other test uses (domains are unique per project only, but a unique one keeps records apart). */
export const uniqueDomain = (label = 'corp') => `${label}-${crypto.randomUUID().slice(0, 8)}.example`;
