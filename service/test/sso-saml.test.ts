// SAML 2.0 connections of teams (issue 28) over HTTP, with a real SAML IdP (samlify, signing with xml-crypto): the
// connection configured from the IdP's metadata; SP-initiated sign-in ending in a code the app redeems; just-in-time
// users and team membership; an existing user linked; and every forged response refused with a clear error page and
// a security event: unsigned, signed by another key, wrapped (XSW), wrong audience or recipient, expired, replayed,
// answering another request, an address outside the team's verified domains. (The browser journey is in
// sso-browser.test.ts.)
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { expectKnownError } from './support/service';
import { newProject, signUp, type TestProject } from './support/projects';
import { sharedServiceWithDns, teamWithVerifiedDomain, uniqueDomain, type ServiceWithDns } from './support/team-enterprise';
import { startSamlIdp, type SamlUser, type TestSamlIdp } from './support/saml-idp';
import { postToAcs, redeem, startSso } from './support/sso-flow';

setDefaultTimeout(60_000);
let env: ServiceWithDns;
let p: TestProject;
let idp: TestSamlIdp;
let otherIdp: TestSamlIdp;

beforeAll(async () => {
  env = await sharedServiceWithDns();
  p = await newProject(env.svc);
  [idp, otherIdp] = await Promise.all([startSamlIdp('acme-idp'), startSamlIdp('evil-idp')]);
});
afterAll(async () => { idp?.close(); otherIdp?.close(); await env?.stop(); });

interface Org { teamId: string; domain: string; connectionId: string; acsUrl: string; entityId: string }

async function samlOrg(o: { allowIdpInitiated?: boolean; idpEnforcesMfa?: boolean } = {}): Promise<Org> {
  const domain = uniqueDomain('acme');
  const { teamId } = await teamWithVerifiedDomain(p, env.dns, domain);
  const created = await p.server.post(`/teams/${teamId}/sso-connections`, {
    type: 'saml', display_name: 'Acme Okta', idp_metadata_xml: idp.metadataXml,
    ...(o.allowIdpInitiated ? { allow_idp_initiated: true } : {}), ...(o.idpEnforcesMfa ? { idp_enforces_mfa: true } : {}),
  });
  expect(created.status).toBe(201);
  return { teamId, domain, connectionId: created.body.id, acsUrl: created.body.acs_url, entityId: created.body.sp_entity_id };
}

/** SP-initiated: the app starts, the IdP's page answers with its auto-posting form; returns what the form posts. */
async function throughIdp(org: Org, user: SamlUser, email = user.email) {
  const start = await startSso(p, { email });
  expect(start.status).toBe(307);
  expect(start.location.startsWith(idp.ssoUrl)).toBe(true);
  idp.signInAs(user);
  const page = await (await fetch(start.location)).text();
  const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(page)![1]!;
  const relayState = /name="RelayState" value="([^"]+)"/.exec(page)![1]!;
  const requestId = /InResponseTo="([^"]+)"/.exec(Buffer.from(samlResponse, 'base64').toString())?.[1] ?? null;
  return { start, samlResponse, relayState, requestId };
}

const members = async (teamId: string) => ((await p.server.get(`/users?team_id=${teamId}`)).body.items as { id: string; primary_email: string; display_name: string }[]);
const sp = (org: Org) => ({ entityId: org.entityId, acsUrl: org.acsUrl });

describe('a SAML connection', () => {
  test('configured from the IdP metadata; the SP metadata names the entity id and ACS', async () => {
    const org = await samlOrg();
    const got = (await p.server.get(`/teams/${org.teamId}/sso-connections/${org.connectionId}`)).body;
    expect(got).toMatchObject({
      type: 'saml', display_name: 'Acme Okta', enabled: true, idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl,
      sp_entity_id: `${env.svc.url}/sso/saml/${org.connectionId}/metadata`, acs_url: `${env.svc.url}/sso/saml/${org.connectionId}/acs`,
      issuer: null, client_id: null, has_client_secret: false, redirect_uri: null, allow_idp_initiated: false,
    });
    expect(got.idp_certificate.replace(/\s/g, '')).toBe(idp.certificatePem.replace(/\s/g, ''));
    const metadata = await fetch(got.sp_metadata_url);
    expect(metadata.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${got.sp_entity_id}"`);
    expect(xml).toContain(`Location="${got.acs_url}"`);
  });

  test('bad settings are refused with INVALID_SSO_CONNECTION', async () => {
    const { teamId } = await teamWithVerifiedDomain(p, env.dns, uniqueDomain());
    const cases: [Record<string, unknown>, string][] = [
      [{ idp_metadata_xml: '<not-xml' }, 'the metadata is not valid XML.'],
      [{ idp_metadata_xml: '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>' }, 'the metadata has no EntityDescriptor with an IDPSSODescriptor.'],
      [{ idp_entity_id: 'https://idp.example', idp_sso_url: 'https://idp.example/sso', idp_certificate: 'not a certificate' }, 'idp_certificate is not an X.509 certificate in PEM.'],
      [{ idp_entity_id: 'https://idp.example', idp_certificate: idp.certificatePem }, 'the IdP single sign-on URL is missing (give idp_metadata_xml, idp_metadata_url or idp_sso_url).'],
      [{ idp_metadata_xml: idp.metadataXml, client_id: 'x' }, 'issuer, client_id and client_secret are for OIDC connections.'],
    ];
    for (const [fields, problem] of cases) {
      const res = await p.server.post(`/teams/${teamId}/sso-connections`, { type: 'saml', ...fields });
      expectKnownError(res, 'INVALID_SSO_CONNECTION', 400);
      expect(`${JSON.stringify(fields).slice(0, 40)}: ${res.body.details?.problem}`).toBe(`${JSON.stringify(fields).slice(0, 40)}: ${problem}`);
    }
    expect((await p.server.get(`/teams/${teamId}/sso-connections`)).body.items).toEqual([]);
  });
});

describe('SP-initiated sign-in', () => {
  test('a new person: just-in-time user, team membership, a code the app redeems', async () => {
    const org = await samlOrg();
    const user = { email: `jit.${crypto.randomUUID().slice(0, 6)}@${org.domain}`, displayName: 'Jit Person' };
    const { start, samlResponse, relayState } = await throughIdp(org, user);
    const acs = await postToAcs(org.acsUrl, samlResponse, relayState);
    expect(acs.status).toBe(303);
    expect(acs.location.startsWith('http://localhost:12345/handler/oauth-callback?')).toBe(true);
    expect(new URL(acs.location).searchParams.get('state')).toBe(start.state);
    const tokens = await redeem(p, acs.location, start.verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.body.is_new_user).toBe(true);
    const me = (await p.client.get('/users/me', { accessToken: tokens.body.access_token })).body;
    expect(me).toMatchObject({ primary_email: user.email, primary_email_verified: true, display_name: 'Jit Person' });
    expect((await members(org.teamId)).map((m) => m.id)).toEqual([me.id]);
    expect((await p.client.get('/users/me/identity-providers', { accessToken: tokens.body.access_token })).body.items).toEqual([
      { team_id: org.teamId, team_display_name: expect.any(String), connection_display_name: 'Acme Okta', connection_type: 'saml', provisioned_by_scim: false },
    ]);

    // The next sign-in finds the same user by the identity, and takes the IdP's new name.
    const again = await throughIdp(org, { ...user, displayName: 'Renamed Person' });
    const second = await postToAcs(org.acsUrl, again.samlResponse, again.relayState);
    const tokens2 = await redeem(p, second.location, again.start.verifier);
    expect(tokens2.body.is_new_user).toBe(false);
    expect((await p.client.get('/users/me', { accessToken: tokens2.body.access_token })).body).toMatchObject({ id: me.id, display_name: 'Renamed Person' });
  });

  test('an existing user with that address is linked, never duplicated', async () => {
    const org = await samlOrg();
    const existing = await signUp(p, { email: `linked.${crypto.randomUUID().slice(0, 6)}@${org.domain}` });
    const { start, samlResponse, relayState } = await throughIdp(org, { email: existing.email });
    const acs = await postToAcs(org.acsUrl, samlResponse, relayState);
    const tokens = await redeem(p, acs.location, start.verifier);
    expect(tokens.body.is_new_user).toBe(false);
    const me = (await p.client.get('/users/me', { accessToken: tokens.body.access_token })).body;
    expect(me.id).toBe(existing.userId);
    expect((await p.server.get(`/users?query=${encodeURIComponent(existing.email)}`)).body.items).toHaveLength(1);
  });

  test('MFA: the project asks for the second factor, unless the connection says the IdP enforces it', async () => {
    for (const enforced of [false, true]) {
      const org = await samlOrg({ idpEnforcesMfa: enforced });
      const person = await signUp(p, { email: `mfa${enforced}.${crypto.randomUUID().slice(0, 6)}@${org.domain}` });
      expect((await p.server.patch(`/users/${person.userId}`, { totp_secret_base64: Buffer.from('12345678901234567890').toString('base64') })).status).toBe(200);
      const { start, samlResponse, relayState } = await throughIdp(org, { email: person.email });
      const acs = await postToAcs(org.acsUrl, samlResponse, relayState);
      const tokens = await redeem(p, acs.location, start.verifier);
      if (enforced) expect(tokens.status).toBe(200);
      else expect(tokens.body.code).toBe('MULTI_FACTOR_AUTHENTICATION_REQUIRED');
    }
  });

  test('discover and start: an address without SSO, an unknown connection', async () => {
    const org = await samlOrg();
    const discovered = await p.client.get(`/auth/sso/discover?email=${encodeURIComponent(`someone@${org.domain.toUpperCase()}`)}`);
    expect(discovered.body).toEqual({ connection_id: org.connectionId, type: 'saml', display_name: 'Acme Okta', sso_required: false });
    expectKnownError(await p.client.get('/auth/sso/discover?email=someone%40no-sso.example'), 'SSO_NOT_CONFIGURED', 404);
    const none = await startSso(p, { email: 'someone@no-sso.example' });
    expect(none.status).toBe(404);
    expect(JSON.parse(none.body).code).toBe('SSO_NOT_CONFIGURED');
    const unknown = await startSso(p, { connection_id: crypto.randomUUID() });
    expect(JSON.parse(unknown.body).code).toBe('SSO_CONNECTION_NOT_FOUND');
  });
});

describe('forged and misdirected responses are refused', () => {
  /** A response for a real pending flow (so only the forgery can be why it is refused). */
  async function pending(org: Org) {
    const email = `victim.${crypto.randomUUID().slice(0, 6)}@${org.domain}`;
    const flow = await throughIdp(org, { email });
    return { ...flow, email };
  }

  async function expectRefused(org: Org, samlResponse: string, relayState: string | null, reason: RegExp) {
    const before = env.svc.output().length;
    const res = await postToAcs(org.acsUrl, samlResponse, relayState);
    expect(res.status).toBe(401);
    expect(res.type).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<h1>Sign-in failed</h1>');
    expect(res.text).toContain('SSO_SIGN_IN_FAILED');
    expect(res.text).toMatch(reason);
    // The security event, in the service's log (written asynchronously: waited for).
    for (let i = 0; i < 50 && !env.svc.output().slice(before).includes(`"connection_id":"${org.connectionId}"`); i++) await Bun.sleep(40);
    const logged = env.svc.output().slice(before);
    expect(logged).toContain('"event":"sign_in.failed"');
    expect(logged).toContain(`"connection_id":"${org.connectionId}"`);
  }

  test('unsigned (its signature removed)', async () => {
    const org = await samlOrg();
    const { email, requestId, relayState } = await pending(org);
    const signed = Buffer.from(await idp.response(sp(org), { user: { email }, requestId, signAssertion: true }), 'base64').toString();
    const unsigned = signed.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, '');
    expect(unsigned).not.toContain('Signature');
    await expectRefused(org, Buffer.from(unsigned).toString('base64'), relayState, /Invalid signature/);
  });

  test('signed by another key', async () => {
    const org = await samlOrg();
    const { email, requestId, relayState } = await pending(org);
    const forged = await otherIdp.response(sp(org), { user: { email }, requestId, tweaks: { Issuer: idp.entityId } });
    await expectRefused(org, forged, relayState, /Invalid signature/);
  });

  test('a wrapped assertion (XSW): an unsigned evil assertion beside or around the signed one', async () => {
    const org = await samlOrg();
    const { email, requestId, relayState } = await pending(org);
    const signed = Buffer.from(await idp.response(sp(org), { user: { email }, requestId, signAssertion: true }), 'base64').toString();
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signed)![0];
    const evil = assertion.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, '').replaceAll(email, `ceo@${org.domain}`).replace(/ID="[^"]+"/, 'ID="_evil"');
    // XSW #1: the evil assertion first, the signed one after it.
    const beside = signed.replace(assertion, evil + assertion);
    await expectRefused(org, Buffer.from(beside).toString('base64'), relayState, /multiple assertions|Invalid signature/);
    // XSW #2: the signed assertion hidden inside the evil one.
    const flow2 = await pending(org);
    const signed2 = Buffer.from(await idp.response(sp(org), { user: { email: flow2.email }, requestId: flow2.requestId, signAssertion: true }), 'base64').toString();
    const assertion2 = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signed2)![0];
    const evil2 = assertion2.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, '').replaceAll(flow2.email, `ceo@${org.domain}`).replace(/ID="[^"]+"/, 'ID="_evil2"');
    const wrapped = signed2.replace(assertion2, evil2.replace('</saml:Subject>', `</saml:Subject><saml:Advice>${assertion2}</saml:Advice>`));
    await expectRefused(org, Buffer.from(wrapped).toString('base64'), flow2.relayState, /Invalid signature|Cannot obtain assertion/);
    // Nobody was signed in as the CEO.
    expect((await members(org.teamId)).map((m) => m.primary_email)).not.toContain(`ceo@${org.domain}`);
  });

  test('wrong audience, wrong recipient', async () => {
    const org = await samlOrg();
    const a = await pending(org);
    await expectRefused(org, await idp.response(sp(org), { user: { email: a.email }, requestId: a.requestId, tweaks: { Audience: 'https://other-sp.example/metadata' } }), a.relayState, /audience/i);
    const b = await pending(org);
    await expectRefused(org, await idp.response(sp(org), { user: { email: b.email }, requestId: b.requestId, tweaks: { SubjectRecipient: 'https://other-sp.example/acs' } }), b.relayState, /Recipient/);
  });

  test('expired, and not yet valid (beyond two minutes of clock skew)', async () => {
    const org = await samlOrg();
    const a = await pending(org);
    const past = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
    await expectRefused(org, await idp.response(sp(org), { user: { email: a.email }, requestId: a.requestId, tweaks: { ConditionsNotBefore: past(20), ConditionsNotOnOrAfter: past(10), SubjectConfirmationDataNotOnOrAfter: past(10) } }), a.relayState, /expired|no valid subject confirmation/i);
    const b = await pending(org);
    const future = new Date(Date.now() + 10 * 60_000).toISOString();
    await expectRefused(org, await idp.response(sp(org), { user: { email: b.email }, requestId: b.requestId, tweaks: { ConditionsNotBefore: future } }), b.relayState, /not yet valid/i);
  });

  test('replayed: the same response twice', async () => {
    const org = await samlOrg();
    const { samlResponse, relayState } = await pending(org);
    expect((await postToAcs(org.acsUrl, samlResponse, relayState)).status).toBe(303);
    await expectRefused(org, samlResponse, relayState, /already been used/);
  });

  test('InResponseTo of another request', async () => {
    const org = await samlOrg();
    const first = await pending(org);
    const second = await pending(org);
    // The IdP's answer to the first request, delivered to the second flow.
    await expectRefused(org, first.samlResponse, second.relayState, /InResponseTo/);
  });

  test('an address outside the team\'s verified domains, even with a valid signature', async () => {
    const org = await samlOrg();
    const outsider = await signUp(p);
    const start = await startSso(p, { connection_id: org.connectionId });
    const page = await (idp.signInAs({ email: outsider.email }), fetch(start.location)).then((r) => r.text());
    const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(page)![1]!;
    const relayState = /name="RelayState" value="([^"]+)"/.exec(page)![1]!;
    await expectRefused(org, samlResponse, relayState, /is not at a verified domain of this organization/);
    expect((await p.client.get('/users/me', { accessToken: outsider.accessToken })).body.id).toBe(outsider.userId);
  });

  test('IdP-initiated: refused unless allowed; allowed, it continues on the app and is used once', async () => {
    const closed = await samlOrg();
    const email = `idp.${crypto.randomUUID().slice(0, 6)}@${closed.domain}`;
    await expectRefused(closed, await idp.response(sp(closed), { user: { email }, requestId: null }), null, /IdP-initiated sign-in is not allowed/);

    const open = await samlOrg({ allowIdpInitiated: true });
    expect((await p.admin.patch('/projects/current', { config: { domains: [{ domain: 'https://app.example', handler_path: '/handler' }] } })).status).toBe(200);
    const unsolicited = await idp.response(sp(open), { user: { email: `idp@${open.domain}` }, requestId: null });
    const bounce = await postToAcs(open.acsUrl, unsolicited, null);
    expect(bounce.status).toBe(303);
    expect(bounce.location).toBe(`https://app.example/handler/sign-in?sso_connection_id=${open.connectionId}`);
    await expectRefused(open, unsolicited, null, /used before/);
    // An unsolicited response may not pretend to answer a request.
    await expectRefused(open, await idp.response(sp(open), { user: { email: `idp@${open.domain}` }, requestId: '_some-request' }), null, /IdP-initiated response may not answer a request/);
  });
});

describe('requiring SSO for a domain', () => {
  test('password, code and reset for its addresses answer SSO_REQUIRED; other addresses are not touched; it can be lifted', async () => {
    const org = await samlOrg();
    const person = await signUp(p, { email: `required.${crypto.randomUUID().slice(0, 6)}@${org.domain}` });
    const bystander = await signUp(p);
    const [domain] = (await p.server.get(`/teams/${org.teamId}/domains`)).body.items;
    const required = await p.server.patch(`/teams/${org.teamId}/domains/${domain.id}`, { sso_required: true });
    expect(required.body).toMatchObject({ domain: org.domain, sso_required: true });

    const refusedSignIn = await p.client.post('/auth/password/sign-in', { email: person.email, password: person.password });
    expectKnownError(refusedSignIn, 'SSO_REQUIRED', 403);
    expect(refusedSignIn.body.error).toBe(`Your organization requires single sign-on for ${person.email}. Continue with SSO.`);
    expectKnownError(await p.client.post('/auth/password/sign-up', { email: `new@${org.domain}`, password: 'correct-horse-9' }), 'SSO_REQUIRED', 403);
    expectKnownError(await p.client.post('/auth/password/send-reset-code', { email: person.email, callback_url: 'http://localhost:12345/reset' }), 'SSO_REQUIRED', 403);
    const project = (await p.admin.get('/projects/current')).body;
    if (project.config.magic_link_enabled) {
      expectKnownError(await p.client.post('/auth/otp/send-sign-in-code', { email: person.email, callback_url: 'http://localhost:12345/otp' }), 'SSO_REQUIRED', 403);
    }
    expect((await p.client.get(`/auth/sso/discover?email=${encodeURIComponent(person.email)}`)).body.sso_required).toBe(true);
    expect((await p.client.post('/auth/password/sign-in', { email: bystander.email, password: bystander.password })).status).toBe(200);

    // Through the IdP it works.
    const { start, samlResponse, relayState } = await throughIdp(org, { email: person.email });
    expect((await redeem(p, (await postToAcs(org.acsUrl, samlResponse, relayState)).location, start.verifier)).status).toBe(200);

    await p.server.patch(`/teams/${org.teamId}/domains/${domain.id}`, { sso_required: false });
    expect((await p.client.post('/auth/password/sign-in', { email: person.email, password: person.password })).status).toBe(200);
  });

  test('only a verified domain of a team with an enabled connection may require SSO', async () => {
    const { teamId } = await teamWithVerifiedDomain(p, env.dns, uniqueDomain());
    const [verified] = (await p.server.get(`/teams/${teamId}/domains`)).body.items;
    const noConnection = await p.server.patch(`/teams/${teamId}/domains/${verified.id}`, { sso_required: true });
    expectKnownError(noConnection, 'INVALID_SSO_CONNECTION', 400);
    expect(noConnection.body.details.problem).toBe('the team has no enabled SSO connection; add one before requiring SSO.');
    const pending = (await p.server.post(`/teams/${teamId}/domains`, { domain: uniqueDomain() })).body;
    expect((await p.server.patch(`/teams/${teamId}/domains/${pending.id}`, { sso_required: true })).body.details.problem).toBe(`${pending.domain} must be verified before SSO can be required for it.`);
    expectKnownError(await p.server.patch(`/teams/${teamId}/domains/${crypto.randomUUID()}`, { sso_required: true }), 'TEAM_DOMAIN_NOT_FOUND', 404);
  });
});

describe('testing a connection (the console\'s "Test sign-in")', () => {
  test('the IdP\'s answer is reported, with what a sign-in would do; nobody is signed in', async () => {
    const org = await samlOrg();
    const email = `tester.${crypto.randomUUID().slice(0, 6)}@${org.domain}`;
    const run = async (user: SamlUser) => {
      const started = await p.server.post(`/teams/${org.teamId}/sso-connections/${org.connectionId}/test`, {});
      expect(started.status).toBe(200);
      expect(started.body.url.startsWith(idp.ssoUrl)).toBe(true);
      idp.signInAs(user);
      const form = await (await fetch(started.body.url)).text();
      const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(form)![1]!;
      const relayState = /name="RelayState" value="([^"]+)"/.exec(form)![1]!;
      return postToAcs(org.acsUrl, samlResponse, relayState);
    };
    const report = await run({ email, displayName: 'Tess Ter', groups: ['Finance', 'Admins'] });
    expect(report.status).toBe(200);
    expect(report.type).toBe('text/html; charset=utf-8');
    expect(report.text).toContain('<h1>Test succeeded</h1>');
    expect(report.text).toContain('A sign-in would create a new account, a member of the team.');
    expect(report.text).toContain(`<code>${email}</code>`);
    expect(report.text).toContain('<code>Finance, Admins</code>');
    expect((await p.server.get(`/users?query=${encodeURIComponent(email)}`)).body.items).toEqual([]);

    const outside = await run({ email: 'someone@elsewhere.example' });
    expect(outside.text).toContain('<h1>Test failed</h1>');
    expect(outside.text).toContain('someone@elsewhere.example is not at a verified domain of this organization.');
    expectKnownError(await p.server.post(`/teams/${org.teamId}/sso-connections/${crypto.randomUUID()}/test`, {}), 'SSO_CONNECTION_NOT_FOUND', 404);
  });
});

describe('groups in the assertion', () => {
  test('a group the owner named grants its permissions at each sign-in, and they go when the group does', async () => {
    const org = await samlOrg();
    expect((await p.admin.post('/team-permission-definitions', { id: `ledger_${crypto.randomUUID().slice(0, 6)}` })).status).toBe(201);
    const permission = (await p.admin.get('/team-permission-definitions')).body.items.map((d: { id: string }) => d.id).find((id: string) => id.startsWith('ledger_'));
    const named = await p.server.post(`/teams/${org.teamId}/scim-groups`, { display_name: 'Finance', permission_ids: [permission] });
    expect(named.status).toBe(201);
    expect(named.body).toMatchObject({ display_name: 'Finance', permission_ids: [permission], member_count: 0 });
    expectKnownError(await p.server.post(`/teams/${org.teamId}/scim-groups`, { display_name: 'FINANCE' }), 'SCIM_GROUP_NAME_TAKEN', 409);
    expectKnownError(await p.server.post(`/teams/${org.teamId}/scim-groups`, { display_name: 'Other', permission_ids: ['no_such_permission'] }), 'PERMISSION_NOT_FOUND', 404);

    const email = `grouped.${crypto.randomUUID().slice(0, 6)}@${org.domain}`;
    const signIn = async (groups: string[]) => {
      const { start, samlResponse, relayState } = await throughIdp(org, { email, groups });
      const tokens = await redeem(p, (await postToAcs(org.acsUrl, samlResponse, relayState)).location, start.verifier);
      return (await p.client.get('/users/me', { accessToken: tokens.body.access_token })).body.id as string;
    };
    const held = async (userId: string) => ((await p.server.get(`/team-permissions?team_id=${org.teamId}&user_id=${userId}`)).body.items as { id: string }[]).map((i) => i.id).sort();
    const userId = await signIn(['finance', 'Engineering']);
    expect(await held(userId)).toEqual([permission, 'member'].sort());
    await signIn(['Engineering']);
    expect(await held(userId)).toEqual(['member']);
  });
});
