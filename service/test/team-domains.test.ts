// Verified team domains over HTTP (issue 28): a team claims an email domain and proves it with a DNS TXT record,
// served here by a real DNS server on loopback (dns2); a missing or wrong record does not verify, a domain belongs
// to one team of a project at most, and bad input gets a known error.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { expectKnownError } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { serverCreateTeam } from './support/teams';
import { sharedServiceWithDns, uniqueDomain, type ServiceWithDns } from './support/team-enterprise';

setDefaultTimeout(60_000);
let env: ServiceWithDns;
let p: TestProject;

beforeAll(async () => {
  env = await sharedServiceWithDns();
  p = await newProject(env.svc);
});
afterAll(() => env?.stop());

describe('claiming and verifying', () => {
  test('a claim answers the TXT record to publish; verify finds it and the domain is verified', async () => {
    const team = await serverCreateTeam(p);
    const domain = uniqueDomain();
    const claimed = await p.server.post(`/teams/${team.id}/domains`, { domain: ` ${domain.toUpperCase()}. ` });
    expect(claimed.status).toBe(201);
    expect(claimed.body).toMatchObject({
      team_id: team.id, domain, status: 'pending', verified_at_millis: null, last_checked_at_millis: null, last_check_problem: null,
      txt_record: { name: `_gatehouse-challenge.${domain}` },
    });
    expect(claimed.body.txt_record.value).toMatch(/^gatehouse-domain-verification=[A-Za-z0-9_-]{22}$/);

    // Nothing published yet: the lookup answers NXDOMAIN.
    const missing = await p.server.post(`/teams/${team.id}/domains/${claimed.body.id}/verify`);
    expectKnownError(missing, 'DOMAIN_VERIFICATION_FAILED', 400);
    expect(missing.body.details).toEqual({ domain, record_name: `_gatehouse-challenge.${domain}`, problem: `no TXT record was found at _gatehouse-challenge.${domain}.` });
    const afterMiss = (await p.server.get(`/teams/${team.id}/domains`)).body.items[0];
    expect(afterMiss.status).toBe('pending');
    expect(afterMiss.last_check_problem).toContain('no TXT record');
    expect(afterMiss.last_checked_at_millis).toBeGreaterThan(0);

    // Another value (someone else's challenge) does not verify.
    env.dns.setTxt(claimed.body.txt_record.name, ['gatehouse-domain-verification=someone-elses', 'v=spf1 -all']);
    const wrong = await p.server.post(`/teams/${team.id}/domains/${claimed.body.id}/verify`);
    expectKnownError(wrong, 'DOMAIN_VERIFICATION_FAILED', 400);
    expect(wrong.body.details.problem).toBe(`the TXT record at _gatehouse-challenge.${domain} carries another verification value.`);

    // The right value beside others verifies.
    env.dns.setTxt(claimed.body.txt_record.name, ['v=spf1 -all', claimed.body.txt_record.value]);
    const verified = await p.server.post(`/teams/${team.id}/domains/${claimed.body.id}/verify`);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ status: 'verified', last_check_problem: null });
    expect(verified.body.verified_at_millis).toBeGreaterThan(0);
    expect((await p.admin.get(`/teams/${team.id}/domains`)).body.items).toEqual([verified.body]);
  });

  test('a domain is verified for one team of a project at most; other projects are separate', async () => {
    const domain = uniqueDomain();
    const first = await serverCreateTeam(p);
    const second = await serverCreateTeam(p);
    const a = (await p.server.post(`/teams/${first.id}/domains`, { domain })).body;
    const b = (await p.server.post(`/teams/${second.id}/domains`, { domain })).body;
    expect(b.status).toBe('pending'); // claims may coexist: only a verification is exclusive
    env.dns.setTxt(a.txt_record.name, [a.txt_record.value, b.txt_record.value]);
    expect((await p.server.post(`/teams/${first.id}/domains/${a.id}/verify`)).status).toBe(200);
    const taken = await p.server.post(`/teams/${second.id}/domains/${b.id}/verify`);
    expectKnownError(taken, 'DOMAIN_VERIFIED_BY_ANOTHER_TEAM', 409);
    expect(taken.body.error).toBe(`${domain} is already verified by another team of this project. A domain can belong to one team only.`);

    // Once the first team lets go of it, the second may verify.
    expect((await p.server.delete(`/teams/${first.id}/domains/${a.id}`)).status).toBe(200);
    expect((await p.server.post(`/teams/${second.id}/domains/${b.id}/verify`)).body.status).toBe('verified');

    // Another project's team verifies the same domain independently.
    const other = await newProject(env.svc);
    const otherTeam = await serverCreateTeam(other);
    const c = (await other.server.post(`/teams/${otherTeam.id}/domains`, { domain })).body;
    env.dns.setTxt(c.txt_record.name, [c.txt_record.value]);
    expect((await other.server.post(`/teams/${otherTeam.id}/domains/${c.id}/verify`)).body.status).toBe('verified');
  });

  test('the same claim twice, and a removed claim', async () => {
    const team = await serverCreateTeam(p);
    const domain = uniqueDomain();
    expect((await p.server.post(`/teams/${team.id}/domains`, { domain })).status).toBe(201);
    expectKnownError(await p.server.post(`/teams/${team.id}/domains`, { domain: domain.toUpperCase() }), 'TEAM_DOMAIN_ALREADY_CLAIMED', 409);
    const [row] = (await p.server.get(`/teams/${team.id}/domains`)).body.items;
    expect((await p.server.delete(`/teams/${team.id}/domains/${row.id}`)).body).toEqual({ success: true });
    expectKnownError(await p.server.delete(`/teams/${team.id}/domains/${row.id}`), 'TEAM_DOMAIN_NOT_FOUND', 404);
    expectKnownError(await p.server.post(`/teams/${team.id}/domains/${row.id}/verify`), 'TEAM_DOMAIN_NOT_FOUND', 404);
    expect((await p.server.get(`/teams/${team.id}/domains`)).body.items).toEqual([]);
  });
});

describe('bad input and access', () => {
  test.each([
    'https://example.com', 'example.com/path', 'user@example.com', 'localhost', '192.168.1.1', 'exa mple.com',
    '-bad.example.com', 'example.com:8080', `${'a'.repeat(64)}.com`,
  ])('%p is not an email domain', async (domain) => {
    const team = await serverCreateTeam(p);
    const res = await p.server.post(`/teams/${team.id}/domains`, { domain });
    expectKnownError(res, 'INVALID_EMAIL_DOMAIN', 400);
    expect(res.body.details).toEqual({ domain });
  });

  test('an international domain is kept in its punycode form', async () => {
    const team = await serverCreateTeam(p);
    const res = await p.server.post(`/teams/${team.id}/domains`, { domain: 'Bücher.example' });
    expect(res.status).toBe(201);
    expect(res.body.domain).toBe('xn--bcher-kva.example');
  });

  test('no such team, another project\'s team, a client, a missing body', async () => {
    const unknown = crypto.randomUUID();
    expectKnownError(await p.server.post(`/teams/${unknown}/domains`, { domain: uniqueDomain() }), 'TEAM_NOT_FOUND', 404);
    expectKnownError(await p.server.get(`/teams/${unknown}/domains`), 'TEAM_NOT_FOUND', 404);
    const other = await newProject(env.svc);
    const theirs = await serverCreateTeam(other);
    expectKnownError(await p.server.post(`/teams/${theirs.id}/domains`, { domain: uniqueDomain() }), 'TEAM_NOT_FOUND', 404);
    const mine = await serverCreateTeam(p);
    const user = await signUp(p);
    const asClient = await p.client.post(`/teams/${mine.id}/domains`, { domain: uniqueDomain() }, { accessToken: user.accessToken });
    expect(asClient.status).toBe(401);
    expect(asClient.body.code).toBe('INSUFFICIENT_ACCESS_TYPE');
    expectKnownError(await p.server.post(`/teams/${mine.id}/domains`, {}), 'SCHEMA_ERROR', 400);
  });

  test('a DNS server that does not answer proves nothing either way (the claim stays pending, with the problem)', async () => {
    const team = await serverCreateTeam(p);
    const claimed = (await p.server.post(`/teams/${team.id}/domains`, { domain: uniqueDomain() })).body;
    // A name the test DNS server refuses to answer for (the handler drops it) is a timeout for the service.
    env.dns.dropQueriesFor(claimed.txt_record.name);
    const res = await p.server.post(`/teams/${team.id}/domains/${claimed.id}/verify`);
    expectKnownError(res, 'DOMAIN_VERIFICATION_FAILED', 400);
    expect(res.body.details.problem).toMatch(/^the DNS lookup of _gatehouse-challenge\..* failed \(E[A-Z]+\)\.$/);
  });
});
