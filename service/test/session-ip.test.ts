// The IP and place a session was last used from (protocol-auth §2.11) come from the one resolved client IP
// (http/client-ip.ts): x-forwarded-for counts only as far as GATEHOUSE_TRUST_PROXY vouches for it, and the geo
// headers a proxy adds (cf-ipcountry, x-vercel-ip-*) only behind a trusted proxy, since any client can write them.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startService, type RunningService } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { setupSuite } from './support/suite';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
// The leftmost entry is the client's to write; 10.0.0.1 is a proxy of the operator's in the trusting service.
const FORWARDED = { 'user-agent': BROWSER, 'x-forwarded-for': '198.51.100.99, 203.0.113.7, 10.0.0.1', 'x-vercel-ip-city': 'S%C3%A3o%20Paulo', 'cf-ipcountry': 'BR' };
const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

// The shared service trusts no proxy (the default).
const { p: untrusting } = await setupSuite();
let trustingService: RunningService;
let trusting: TestProject;

beforeAll(async () => {
  trustingService = await startService({ env: { GATEHOUSE_TRUST_PROXY: 'loopback, 10.0.0.0/8' }, startTimeoutMs: 120_000 });
  trusting = await newProject(trustingService);
}, 180_000);
afterAll(async () => { await trustingService?.stop(); });

const sessionIdOf = (accessToken: string) => JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).refreshTokenId as string;

async function signInFrom(p: TestProject, headers: Record<string, string>) {
  const u = await signUp(p);
  const res = await p.client.post('/auth/password/sign-in', { email: u.email, password: u.password }, { headers });
  expect(res.status).toBe(200);
  return { u, sessionId: sessionIdOf(res.body.access_token) };
}

async function sessionOf(p: TestProject, userId: string, sessionId: string) {
  const list = await p.server.get(`/auth/sessions?user_id=${userId}`);
  expect(list.status).toBe(200);
  return list.body.items.find((s: any) => s.id === sessionId);
}

describe("a session's IP info", () => {
  test('behind a trusted proxy: the address the proxies vouch for, and the geo headers', async () => {
    const { u, sessionId } = await signInFrom(trusting, FORWARDED);
    const browserSession = await sessionOf(trusting, u.userId, sessionId);
    expect(browserSession.last_used_at_end_user_ip_info).toEqual({
      ip: '203.0.113.7', countryCode: 'BR', regionCode: null, cityName: 'São Paulo', latitude: null, longitude: null, tzIdentifier: null,
    });
    const list = await trusting.server.get(`/auth/sessions?user_id=${u.userId}`);
    const other = list.body.items.find((s: any) => s.id !== sessionId);
    expect('last_used_at_end_user_ip_info' in other).toBe(false);

    // Still there once the activity has been written to the database.
    await Bun.sleep(1500);
    expect((await sessionOf(trusting, u.userId, sessionId)).last_used_at_end_user_ip_info.ip).toBe('203.0.113.7');
  });

  test('without a trusted proxy: the socket address, whatever x-forwarded-for says, and no place', async () => {
    const { u, sessionId } = await signInFrom(untrusting, FORWARDED);
    const info = (await sessionOf(untrusting, u.userId, sessionId)).last_used_at_end_user_ip_info;
    expect(info.ip).toMatch(LOOPBACK);
    expect(info).toEqual({ ip: info.ip, countryCode: null, regionCode: null, cityName: null, latitude: null, longitude: null, tzIdentifier: null });
    await Bun.sleep(1500);
    expect((await sessionOf(untrusting, u.userId, sessionId)).last_used_at_end_user_ip_info.ip).toMatch(LOOPBACK);
  });

  test('a malformed percent-encoded x-vercel-ip-city is kept as sent; a non-numeric latitude is none', async () => {
    const { u, sessionId } = await signInFrom(trusting, { 'user-agent': 'Mozilla/5.0', 'x-forwarded-for': '192.0.2.1', 'x-vercel-ip-city': '%E0%A4%A', 'x-vercel-ip-latitude': 'north' });
    expect((await sessionOf(trusting, u.userId, sessionId)).last_used_at_end_user_ip_info).toMatchObject({ ip: '192.0.2.1', cityName: '%E0%A4%A', latitude: null });
  });

  test('callers that are not browsers get none recorded, forwarded or not', async () => {
    for (const p of [trusting, untrusting]) {
      const { u, sessionId } = await signInFrom(p, { 'x-forwarded-for': '198.51.100.1' });
      expect('last_used_at_end_user_ip_info' in (await sessionOf(p, u.userId, sessionId))).toBe(false);
    }
  });
});
