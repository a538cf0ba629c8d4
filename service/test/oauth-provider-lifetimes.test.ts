// The project as an OpenID provider (issue 27): each client's token lifetimes (access, ID and refresh tokens), set
// through the admin API and seen by openid-client (a certified relying party) in what the provider issues, which a
// client registering itself (RFC 7591) cannot choose; and a device polling after its device code expired, told
// `expired_token` (RFC 8628 §3.5). Expiries are moved in the database (the test's own service) rather than waited for.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { and, eq, sql } from 'drizzle-orm';
import { schema } from '../src/db/index';
import { expectKnownError } from './support/service';
import { startServiceWithDatabase } from './support/service-database';
import { newProject, signUp } from './support/projects';
import { CookieJar, discover, formOf, issuerUrl, oauthErrorOf, oidc, registerClient, signInThroughConsentApi } from './support/oidc-relying-party';

setDefaultTimeout(60_000);
const svc = await startServiceWithDatabase();
afterAll(() => svc.stop());
const project = await newProject(svc);
const REDIRECT = 'https://app.example.com/callback';
const DAY = 86_400;

function lifetimeOf(jwt: string): number {
  const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number };
  return claims.exp - claims.iat;
}

describe("a client's token lifetimes (admin API)", () => {
  test('defaults, chosen on create, changed on update', async () => {
    const plain = await registerClient(project, { display_name: 'Plain', client_type: 'public', redirect_uris: [REDIRECT] });
    expect(plain.body).toMatchObject({ access_token_lifetime_seconds: 3600, id_token_lifetime_seconds: 3600, refresh_token_lifetime_seconds: 30 * DAY });
    const chosen = await registerClient(project, {
      display_name: 'Chosen', client_type: 'public', redirect_uris: [REDIRECT],
      access_token_lifetime_seconds: 60, id_token_lifetime_seconds: DAY, refresh_token_lifetime_seconds: 365 * DAY,
    });
    expect((await project.admin.get(`/oauth-provider/clients/${chosen.clientId}`)).body).toMatchObject({
      access_token_lifetime_seconds: 60, id_token_lifetime_seconds: DAY, refresh_token_lifetime_seconds: 365 * DAY,
    });
    const changed = await project.admin.patch(`/oauth-provider/clients/${chosen.clientId}`, { refresh_token_lifetime_seconds: 3600 });
    expect(changed.body).toMatchObject({ access_token_lifetime_seconds: 60, id_token_lifetime_seconds: DAY, refresh_token_lifetime_seconds: 3600 });
    const listed = (await project.admin.get('/oauth-provider/clients')).body.items.find((c: { client_id: string }) => c.client_id === chosen.clientId);
    expect(listed.refresh_token_lifetime_seconds).toBe(3600);
  });

  test('a lifetime out of its bounds is a schema error, and nothing is written', async () => {
    const existing = await registerClient(project, { display_name: 'Kept', client_type: 'public', redirect_uris: [REDIRECT], access_token_lifetime_seconds: 120 });
    const before = (await project.admin.get('/oauth-provider/clients')).body.items.length;
    const wrong: Record<string, unknown>[] = [
      { access_token_lifetime_seconds: 59 }, { access_token_lifetime_seconds: DAY + 1 }, { access_token_lifetime_seconds: 120.5 },
      { id_token_lifetime_seconds: 0 }, { id_token_lifetime_seconds: DAY + 1 }, { id_token_lifetime_seconds: '300' },
      { refresh_token_lifetime_seconds: 3599 }, { refresh_token_lifetime_seconds: 365 * DAY + 1 }, { refresh_token_lifetime_seconds: null },
    ];
    for (const fields of wrong) {
      expectKnownError(await project.admin.post('/oauth-provider/clients', { display_name: 'x', client_type: 'public', redirect_uris: [REDIRECT], ...fields }), 'SCHEMA_ERROR', 400);
      expectKnownError(await project.admin.patch(`/oauth-provider/clients/${existing.clientId}`, { display_name: 'Changed', ...fields }), 'SCHEMA_ERROR', 400);
    }
    expect((await project.admin.get('/oauth-provider/clients')).body.items.length).toBe(before);
    expect((await project.admin.get(`/oauth-provider/clients/${existing.clientId}`)).body).toMatchObject({ display_name: 'Kept', access_token_lifetime_seconds: 120 });
  });
});

describe('what the provider issues follows the client', () => {
  test('a 120 s access token, a 300 s ID token, a one-hour refresh token (again after rotation)', async () => {
    const app = await registerClient(project, {
      display_name: 'Short-lived', client_type: 'confidential', redirect_uris: [REDIRECT],
      access_token_lifetime_seconds: 120, id_token_lifetime_seconds: 300, refresh_token_lifetime_seconds: 3600,
    });
    const config = await discover(svc, project.id, app.clientId, app.clientSecret);
    const user = await signUp(project);
    const tokens = await signInThroughConsentApi(svc, project, config, user.accessToken, REDIRECT);
    expect(tokens.expires_in).toBe(120);
    expect(lifetimeOf(tokens.id_token!)).toBe(300);
    const access = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(access.exp! - access.iat!).toBe(120);
    const refresh = await oidc.tokenIntrospection(config, tokens.refresh_token!);
    expect(refresh).toMatchObject({ active: true, client_id: app.clientId, sub: user.userId });
    expect(refresh.exp! - refresh.iat!).toBe(3600);

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.expires_in).toBe(120);
    expect(lifetimeOf(refreshed.id_token!)).toBe(300);
    const rotated = await oidc.tokenIntrospection(config, refreshed.refresh_token!);
    expect(rotated.exp! - rotated.iat!).toBe(3600);

    // Changed by the owner: the next tokens follow.
    await project.admin.patch(`/oauth-provider/clients/${app.clientId}`, { access_token_lifetime_seconds: 900, refresh_token_lifetime_seconds: 7 * DAY });
    const later = await oidc.refreshTokenGrant(config, refreshed.refresh_token!);
    expect(later.expires_in).toBe(900);
    const longer = await oidc.tokenIntrospection(config, later.refresh_token!);
    expect(longer.exp! - longer.iat!).toBe(7 * DAY);
  });

  test("another client keeps the defaults; a machine client's token lives its access lifetime", async () => {
    const app = await registerClient(project, { display_name: 'Default', client_type: 'confidential', redirect_uris: [REDIRECT] });
    const config = await discover(svc, project.id, app.clientId, app.clientSecret);
    const user = await signUp(project);
    const tokens = await signInThroughConsentApi(svc, project, config, user.accessToken, REDIRECT);
    expect(tokens.expires_in).toBe(3600);
    expect(lifetimeOf(tokens.id_token!)).toBe(3600);
    const refresh = await oidc.tokenIntrospection(config, tokens.refresh_token!);
    expect(refresh.exp! - refresh.iat!).toBe(30 * DAY);

    const machine = await registerClient(project, { display_name: 'Cron', client_type: 'confidential', grant_types: ['client_credentials'], scopes: ['openid'], access_token_lifetime_seconds: 300 });
    const machineConfig = await discover(svc, project.id, machine.clientId, machine.clientSecret);
    expect((await oidc.clientCredentialsGrant(machineConfig, { scope: 'openid' })).expires_in).toBe(300);
  });

  test('a refresh token past its lifetime is refused', async () => {
    const app = await registerClient(project, { display_name: 'Hour', client_type: 'confidential', redirect_uris: [REDIRECT], refresh_token_lifetime_seconds: 3600 });
    const config = await discover(svc, project.id, app.clientId, app.clientSecret);
    const user = await signUp(project);
    const tokens = await signInThroughConsentApi(svc, project, config, user.accessToken, REDIRECT);
    // An hour and a minute later, as the provider stores it (its row and the token's own expiry).
    await moveClock(app.clientId, 'RefreshToken', 3660);
    expect(await oauthErrorOf(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
  });
});

describe('a client that registers itself (RFC 7591)', () => {
  test('cannot choose its token lifetimes: it gets the defaults, which the owner may change', async () => {
    const own = await newProject(svc);
    await own.admin.patch('/oauth-provider/settings', { dynamic_client_registration: true });
    const res = await fetch(`${issuerUrl(svc, own.id).href}/reg`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Greedy', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'],
        access_token_lifetime_seconds: DAY, refresh_token_lifetime_seconds: 365 * DAY,
      }),
    });
    expect(res.status).toBe(201);
    const registered = await res.json() as Record<string, unknown>;
    expect(registered.access_token_lifetime_seconds).toBeUndefined();
    expect(registered.refresh_token_lifetime_seconds).toBeUndefined();
    const clientId = registered.client_id as string;
    expect((await own.admin.get(`/oauth-provider/clients/${clientId}`)).body).toMatchObject({
      access_token_lifetime_seconds: 3600, id_token_lifetime_seconds: 3600, refresh_token_lifetime_seconds: 30 * DAY,
    });
    const config = await discover(svc, own.id, clientId);
    const user = await signUp(own);
    expect((await signInThroughConsentApi(svc, own, config, user.accessToken, REDIRECT)).expires_in).toBe(3600);
    await own.admin.patch(`/oauth-provider/clients/${clientId}`, { access_token_lifetime_seconds: 600 });
    expect((await signInThroughConsentApi(svc, own, config, user.accessToken, REDIRECT)).expires_in).toBe(600);
  });
});

describe('device authorization grant (RFC 8628): an expired device code', () => {
  test('a device polling after its code expired is told expired_token; while it lives, authorization_pending', async () => {
    const tv = await registerClient(project, { display_name: 'Old TV', client_type: 'public', grant_types: ['urn:ietf:params:oauth:grant-type:device_code'] });
    const config = await discover(svc, project.id, tv.clientId);
    const device = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    expect(device.expires_in).toBe(600);
    const poll = () => fetch(config.serverMetadata().token_endpoint!, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code, client_id: tv.clientId }),
    });
    const pending = await poll();
    expect(pending.status).toBe(400);
    expect(await pending.json()).toMatchObject({ error: 'authorization_pending' });

    // Eleven minutes on: the code (ten minutes) has expired.
    await moveClock(tv.clientId, 'DeviceCode', 660);
    const late = await poll();
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ error: 'expired_token' });
    // openid-client's own polling gives up on it the same way.
    expect(await oauthErrorOf(oidc.pollDeviceAuthorizationGrant(config, device))).toBe('expired_token');
    // The person who types the code now is told it expired (not that it is wrong).
    const phone = new CookieJar();
    const entry = formOf(await (await phone.fetch(`${issuerUrl(svc, project.id).href}/device`)).text(), 'op.deviceInputForm');
    const typed = await phone.fetch(new URL(entry.action, issuerUrl(svc, project.id)), {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ ...entry.fields, user_code: device.user_code }),
    });
    expect(await typed.text()).toContain('That code has expired');
  });
});

/** Moves a client's stored records of `model` `seconds` into the past: their row's expiry and the payload's own. */
async function moveClock(clientId: string, model: string, seconds: number): Promise<void> {
  const r = schema.oauthProviderRecords;
  const by = sql.raw(String(Math.trunc(seconds)));
  const moved = await svc.withDatabase((db) => db.update(r).set({
    expiresAt: sql`${r.expiresAt} - interval '${by} seconds'`,
    payload: sql`jsonb_set(jsonb_set(${r.payload}, '{exp}', to_jsonb((${r.payload}->>'exp')::bigint - ${by})), '{iat}', to_jsonb((${r.payload}->>'iat')::bigint - ${by}))`,
  }).where(and(eq(r.projectId, project.id), eq(r.clientId, clientId), eq(r.model, model))).returning({ model: r.model }));
  expect(moved.length).toBeGreaterThan(0);
}
