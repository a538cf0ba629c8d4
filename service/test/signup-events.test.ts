// `user.created` from every sign-up path (protocol-resources §12.6: OTP, OAuth and anonymous here; password and
// POST /users are in webhooks.test.ts) and `team.created` for the personal team those sign-ups make under
// `create_team_on_sign_up`. A service of its own: a real OpenID provider for OAuth, a real SMTP server for the
// OTP mail, its own `internal` project (the only one allowing anonymous sign-up), and a quick webhook worker.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createHash, randomBytes } from 'node:crypto';
import { DEV_CLIENT_SECRET, devClientId } from '../src/oauth/endpoints.ts';
import { completeProviderLogin, startOidcFixture, type OidcFixture } from './support/oidc.ts';
import { DEV_KEYS, adminApi, startService, uniqueEmail, type RunningService } from './support/service.ts';
import { internalClient, newProject, type TestProject } from './support/projects.ts';
import { extractOtp, startSmtpFixture, type SmtpFixture } from './support/smtp.ts';
import { isolatedDatabase } from './support/isolated-database.ts';

setDefaultTimeout(60_000);

interface Event { type: string; data: any }
let idp: OidcFixture;
let smtp: SmtpFixture;
let db: Awaited<ReturnType<typeof isolatedDatabase>> | undefined;
let svc: RunningService;
let receiver: ReturnType<typeof Bun.serve>;
const received = new Map<string, Event[]>(); // by path (one path per project)

beforeAll(async () => {
  idp = await startOidcFixture();
  smtp = await startSmtpFixture();
  // On PostgreSQL a database of its own: other instances' workers must not take this one's mail or deliveries.
  db = await isolatedDatabase();
  svc = await startService({ env: {
    ...idp.overridesEnv(), SMTP_URL: smtp.url, GATEHOUSE_WEBHOOK_POLL_MS: '100',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
  } });
  idp.addDevClients(svc.url);
  receiver = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname;
      received.set(path, [...(received.get(path) ?? []), (await req.json()) as Event]);
      return new Response(null, { status: 204 });
    },
  });
}, 120_000);

afterAll(async () => {
  receiver?.stop(true);
  await svc?.stop();
  await db?.drop();
  await smtp?.stop();
  await idp?.close();
}, 30_000);

/** Registers a receiving endpoint for the project (by id, admin key); returns its events. */
async function hook(projectId: string, superSecretAdminKey: string) {
  const path = `/hook/${projectId}/${crypto.randomUUID()}`;
  const res = await adminApi(svc.url, projectId, superSecretAdminKey).post('/webhooks/endpoints', { url: `http://127.0.0.1:${receiver.port}${path}` });
  expect(res.status).toBe(201);
  return { events: () => received.get(path) ?? [], remove: () => adminApi(svc.url, projectId, superSecretAdminKey).delete(`/webhooks/endpoints/${res.body.id}`) };
}

async function waitFor(events: () => Event[], pred: (e: Event) => boolean) {
  const until = Date.now() + 20_000;
  while (!events().some(pred)) {
    if (Date.now() > until) throw new Error(`timed out; got ${JSON.stringify(events().map((e) => e.type))}`);
    await Bun.sleep(50);
  }
  await Bun.sleep(500); // catch unexpected extras
}

const of = (events: Event[], type: string) => events.filter((e) => e.type === type).map((e) => e.data);

/** The user.created event of `userId` is the server user, and the personal team (if any) sent team.created. */
async function expectSignUpEvents(p: { server: TestProject['server'] }, events: () => Event[], userId: string, personalTeamName?: string) {
  await waitFor(events, (e) => e.type === 'user.created' && e.data.id === userId);
  if (personalTeamName) await waitFor(events, (e) => e.type === 'team.created');
  const created = of(events(), 'user.created').filter((u) => u.id === userId);
  expect(created).toHaveLength(1);
  const user = (await p.server.get(`/users/${userId}`)).body;
  const { last_active_at_millis: _a, ...expected } = user;
  const { last_active_at_millis: _b, ...got } = created[0];
  expect(got).toEqual(expected);
  const teams = (await p.server.get(`/teams?user_id=${userId}`)).body.items;
  if (personalTeamName) {
    expect(teams.map((t: { display_name: string }) => t.display_name)).toEqual([personalTeamName]);
    expect(of(events(), 'team.created')).toEqual(teams);
    expect(user.selected_team_id).toBe(teams[0].id);
  } else {
    expect(teams).toEqual([]);
    expect(of(events(), 'team.created')).toEqual([]);
  }
  return user;
}

describe('OTP sign-up', () => {
  for (const personal of [false, true]) {
    test(`sends user.created${personal ? ' and team.created for the personal team' : ''}`, async () => {
      const p = await newProject(svc, { config: { magic_link_enabled: true, create_team_on_sign_up: personal } });
      const { events } = await hook(p.id, p.keys.superSecretAdminKey);
      const email = uniqueEmail('otp');
      const sent = await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: 'http://localhost:3000/handler/magic-link-callback' });
      expect(sent.status).toBe(200);
      const otp = extractOtp(await smtp.waitForMail((m) => m.to.includes(email) && m.text.includes(sent.body.nonce)));
      const res = await p.client.post('/auth/otp/sign-in', { code: otp + sent.body.nonce });
      expect({ status: res.status, isNew: res.body.is_new_user }).toEqual({ status: 200, isNew: true });
      const user = await expectSignUpEvents(p, events, res.body.user_id, personal ? `${email}'s Team` : undefined);
      expect(user).toMatchObject({ primary_email: email, otp_auth_enabled: true });

      // Signing in again creates nobody.
      const again = await p.client.post('/auth/otp/send-sign-in-code', { email, callback_url: 'http://localhost:3000/handler/magic-link-callback' });
      const otp2 = extractOtp(await smtp.waitForMail((m) => m.to.includes(email) && m.text.includes(again.body.nonce)));
      expect((await p.client.post('/auth/otp/sign-in', { code: otp2 + again.body.nonce })).body.is_new_user).toBe(false);
      await Bun.sleep(1_000);
      expect(of(events(), 'user.created')).toHaveLength(1);
    });
  }
});

describe('OAuth sign-up', () => {
  const standard = (id: string) => ({ id, type: 'standard', enabled: true, client_id: devClientId(id as never), client_secret: DEV_CLIENT_SECRET });
  const REDIRECT = 'http://localhost:12345/oauth-callback';

  /** authorize → provider login → callback → token exchange; returns the token response. */
  async function oauthSignIn(p: TestProject, login: string) {
    const verifier = randomBytes(32).toString('base64url');
    const q = new URLSearchParams({
      client_id: p.id, client_secret: p.keys.publishableClientKey, redirect_uri: REDIRECT, scope: 'legacy', state: randomBytes(16).toString('base64url'),
      grant_type: 'authorization_code', code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', response_type: 'code',
    });
    const authorize = await fetch(`${svc.url}/api/v1/auth/oauth/authorize/github?${q}`, { redirect: 'manual' });
    expect(authorize.status).toBe(307);
    const cookie = (authorize.headers.get('set-cookie') ?? '').split(';')[0];
    const providerCallback = await completeProviderLogin(authorize.headers.get('location')!, { login });
    const cb = await fetch(providerCallback, { headers: { cookie }, redirect: 'manual' });
    expect(cb.status).toBe(307);
    const code = new URL(cb.headers.get('location')!).searchParams.get('code')!;
    const res = await p.client.post('/auth/oauth/token', {
      grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: p.id, client_secret: p.keys.publishableClientKey, code_verifier: verifier,
    }, { form: true, headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    return res.body as { access_token: string; is_new_user: boolean };
  }

  async function userIdOf(p: TestProject, accessToken: string) {
    return (await p.client.get('/users/me', { accessToken })).body.id as string;
  }

  test('sends user.created; a second sign-in sends nothing', async () => {
    const p = await newProject(svc, { config: { oauth_providers: [standard('github')] } });
    const { events } = await hook(p.id, p.keys.superSecretAdminKey);
    const login = `octo-${randomBytes(4).toString('hex')}`;
    const email = uniqueEmail('octo');
    idp.setAccount(login, { email, emailVerified: true, name: 'Octo Cat' });
    const first = await oauthSignIn(p, login);
    expect(first.is_new_user).toBe(true);
    const user = await expectSignUpEvents(p, events, await userIdOf(p, first.access_token));
    expect(user).toMatchObject({ display_name: 'Octo Cat', primary_email: email });
    expect((await oauthSignIn(p, login)).is_new_user).toBe(false);
    await Bun.sleep(1_000);
    expect(of(events(), 'user.created')).toHaveLength(1);
  });

  test('with create_team_on_sign_up: team.created for the personal team, named after the name, the email, or "Personal Team"', async () => {
    const p = await newProject(svc, { config: { oauth_providers: [standard('github')], create_team_on_sign_up: true } });
    const cases: { name: string | null; email: string | null; team: (email: string | null) => string }[] = [
      { name: 'Named Person', email: uniqueEmail('named'), team: () => "Named Person's Team" },
      { name: null, email: uniqueEmail('nameless'), team: (e) => `${e}'s Team` },
      { name: null, email: null, team: () => 'Personal Team' },
    ];
    for (const c of cases) {
      const { events, remove } = await hook(p.id, p.keys.superSecretAdminKey);
      const login = `gh-${randomBytes(4).toString('hex')}`;
      idp.setAccount(login, { name: c.name, email: c.email, emailVerified: true });
      const tokens = await oauthSignIn(p, login);
      expect(tokens.is_new_user).toBe(true);
      const user = await expectSignUpEvents(p, events, await userIdOf(p, tokens.access_token), c.team(c.email));
      expect({ name: user.display_name, email: user.primary_email }).toEqual({ name: c.name, email: c.email });
      expect((await remove()).status).toBe(200);
    }
  });
});

describe('anonymous sign-up', () => {
  test('sends user.created (and team.created when the internal project makes personal teams)', async () => {
    const internalAdmin = adminApi(svc.url, DEV_KEYS.projectId, DEV_KEYS.superSecretAdminKey);
    const internal = { server: internalAdmin };
    const { events, remove } = await hook(DEV_KEYS.projectId, DEV_KEYS.superSecretAdminKey);
    try {
      const res = await internalClient(svc).post('/auth/anonymous/sign-up');
      expect(res.status).toBe(200);
      const user = await expectSignUpEvents(internal, events, res.body.user_id);
      expect(user).toMatchObject({ is_anonymous: true, display_name: 'Anonymous user' });

      expect((await internalAdmin.patch('/projects/current', { config: { create_team_on_sign_up: true } })).status).toBe(200);
      const { events: events2, remove: remove2 } = await hook(DEV_KEYS.projectId, DEV_KEYS.superSecretAdminKey);
      try {
        const second = await internalClient(svc).post('/auth/anonymous/sign-up');
        expect(second.status).toBe(200);
        await expectSignUpEvents(internal, events2, second.body.user_id, "Anonymous user's Team");
      } finally {
        await remove2();
        await internalAdmin.patch('/projects/current', { config: { create_team_on_sign_up: false } });
      }
    } finally {
      await remove();
    }
  });
});
