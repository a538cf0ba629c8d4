// Signing in through a team's SSO connection (issue 28). The app starts as it does for OAuth (the same parameters,
// with the user's `email` or a `connection_id`); Gatehouse sends the browser to the IdP (a SAML AuthnRequest, or an
// OIDC authorization request with PKCE and a nonce); the IdP's answer is checked (sso/saml.ts, sso/oidc.ts); the
// user is found by the identity the connection recorded, else linked by an address at one of the team's verified
// domains, else created (just in time), and made a member of the team; the browser goes back to the app with an
// authorization code that the app redeems at /auth/oauth/token, exactly as after OAuth. An address outside the
// team's verified domains is refused: an IdP can only sign in its own organization's people.
import { randomBytes } from 'node:crypto';
import { KnownError, KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { emailDomainOf } from '@gatehouse/shared/rules/email-domains';
import type { SsoAuthorizeQuery } from '@gatehouse/shared/schemas/team-enterprise';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import * as users from '../repo/users';
import * as sso from '../repo/sso';
import * as flow from '../repo/oauth-flow';
import { isMember } from '../repo/team-members';
import { lockUser } from '../repo/contact-channels';
import { hashSecret } from '../db/secret-hash';
import { openSecret } from '../db/secrets-at-rest';
import { isUniqueViolation } from '../db/errors';
import { assertTrustedCallback } from '../auth/flow-emails';
import { createUserIn } from '../users/create';
import { applyUserUpdate } from '../users/update';
import { joinTeam } from '../teams/membership';
import { serverUserView } from '../presenters/users';
import { securityEvent } from '../observability/security-events';
import { authorizeClient, clearInnerCookie, innerCookie, innerCookieName } from '../oauth/outer-flow';
import { AUTHORIZATION_CODE_LIFETIME_MS, readCookie, trusts } from '../oauth/callback';
import { discoverOidc, oidcAuthorizationUrl, oidcCallback } from './oidc';
import { samlAuthorizeUrl, validateSamlResponse } from './saml';
import { assertionFacts } from './assertion-facts';
import { readIdentity, type SsoIdentity } from './identity';
import { syncSsoGroupGrants } from '../scim/group-permissions';
import { oidcRedirectUri, type ConnectionSettings, type OidcSettings, type SamlSettings } from './settings';
import { testReport, type ConnectionTestReport } from './connection-test-report';

/** What the IdP's answer needs from the start (the `data` of an oauth_states row, `kind: 'sso'`). */
export interface SsoFlowState {
  kind: 'sso';
  connectionId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  codeChallengeMethod: 'S256' | 'plain';
  errorRedirectUrl: string | null;
  afterCallbackRedirectUrl: string | null;
  samlRequestId: string | null;
  oidc: { codeVerifier: string; nonce: string } | null;
  /** A test of the connection from the console: the IdP's answer is reported, nobody is signed in. */
  test?: boolean;
  /** A test's IdP URL, for the step that binds an OIDC test to the window it opens in (connection-test.ts). */
  idpLocation?: string;
}

const clientSecretOf = (row: sso.SsoConnectionRow) => (row.clientSecretSealed ? openSecret('oauth-client-secret', row.clientSecretSealed) : null);

/** GET /auth/sso/discover: the connection an address signs in with (SSO_NOT_CONFIGURED when none). */
export async function discoverSso(services: Services, input: { project: Project; email: string }) {
  const domain = emailDomainOf(input.email.trim());
  const owner = domain ? await sso.domainOwner(services.db, input.project.id, domain) : null;
  if (!owner?.connection) throw new KnownErrors.SsoNotConfigured(input.email);
  return { connection: owner.connection, ssoRequired: owner.ssoRequired };
}

/** GET /auth/sso/status: whether the sign-in page should offer "Continue with SSO". */
export async function ssoStatus(services: Services, input: { project: Project }): Promise<{ enabled: boolean }> {
  return { enabled: await sso.projectHasSso(services.db, input.project.id) };
}

/** Where to send the browser (the IdP) and, for OIDC, the cookie binding the flow to it. */
export async function startSsoSignIn(services: Services, q: SsoAuthorizeQuery): Promise<{ location: string; setCookie?: string }> {
  const project = await authorizeClient(services, q.client_id, q.client_secret);
  if (q.scope !== 'legacy') throw new KnownErrors.InvalidScope(q.scope);
  let connection: sso.SsoConnectionRow | null;
  if (q.connection_id) {
    connection = await sso.findConnection(services.db, project.id, q.connection_id);
    if (!connection?.enabled) throw new KnownErrors.SsoConnectionNotFound(q.connection_id);
  } else if (q.email) {
    connection = (await discoverSso(services, { project, email: q.email })).connection;
  } else {
    throw new StatusError(400, 'Give the email address to sign in with (email) or the SSO connection (connection_id).');
  }
  const redirectUri = q.redirect_uri.split('#')[0]!;
  if (!trusts(project, redirectUri)) throw new KnownErrors.RedirectUrlNotWhitelisted();
  if (q.after_callback_redirect_url) assertTrustedCallback(project, q.after_callback_redirect_url);

  return sendToIdp(services, project.id, connection, {
    kind: 'sso', connectionId: connection.id, redirectUri, state: q.state, codeChallenge: q.code_challenge,
    codeChallengeMethod: q.code_challenge_method, errorRedirectUrl: q.error_redirect_url ?? null,
    afterCallbackRedirectUrl: q.after_callback_redirect_url ?? null, samlRequestId: null, oidc: null,
  }, q.email);
}

/** Stores the flow and builds the IdP's URL for it (an AuthnRequest, or an OIDC request with PKCE and a nonce). */
export async function sendToIdp(services: Services, projectId: string, connection: sso.SsoConnectionRow, data: SsoFlowState, loginHint?: string): Promise<{ location: string; setCookie?: string; innerState: string }> {
  const innerState = randomBytes(32).toString('base64url');
  const settings = connection.settings as ConnectionSettings;
  let location: string;
  if (settings.type === 'saml') {
    const started = await samlAuthorizeUrl(services.config.publicUrl, connection.id, settings, innerState);
    location = started.location;
    data.samlRequestId = started.requestId;
  } else {
    const config = await discoverOidc(services, settings, clientSecretOf(connection))
      .catch((err: Error) => { throw new KnownErrors.InvalidSsoConnection(`the issuer's discovery failed (${err.message}).`); });
    const started = await oidcAuthorizationUrl(config, { redirectUri: oidcRedirectUri(services.config.publicUrl, connection.id), state: innerState, loginHint });
    location = started.location;
    data.oidc = { codeVerifier: started.codeVerifier, nonce: started.nonce };
  }
  await flow.purgeExpiredStates(services.db, projectId);
  const lifetimeSeconds = services.config.oauthFlowLifetimeSeconds;
  if (data.test) data.idpLocation = location;
  await flow.insertState(services.db, { innerState, projectId, data, expiresAt: new Date(Date.now() + lifetimeSeconds * 1000) });
  // SAML answers with a cross-site POST that carries no Lax cookie: its flow is bound by InResponseTo instead.
  return settings.type === 'oidc' ? { location, innerState, setCookie: ssoFlowCookie(services, innerState) } : { location, innerState };
}

/** The cookie that binds an OIDC flow to the browser it started in. */
export function ssoFlowCookie(services: Services, innerState: string): string {
  return innerCookie(services, innerState, 'true', { maxAgeSeconds: services.config.oauthFlowLifetimeSeconds, formPost: false });
}

/** How the IdP's answer ended: back to the app (with a code or an error), or an error page. */
export type SsoOutcome = { clearCookie?: string } & (
  | { type: 'redirect'; location: string } | { type: 'error'; error: KnownError } | { type: 'report'; report: ConnectionTestReport });

function refused(project: Project | null, connection: sso.SsoConnectionRow | null, reason: string): KnownError {
  securityEvent('sign_in.failed', { project_id: project?.id ?? connection?.projectId ?? 'unknown', method: `sso_${connection?.type ?? 'unknown'}`, connection_id: connection?.id ?? null, reason });
  return new KnownErrors.SsoSignInFailed(reason);
}

/** An error after the flow is known goes back to the app's error URL when it gave a trusted one. */
function failure(project: Project, data: SsoFlowState, error: KnownError, clearCookie?: string): SsoOutcome {
  if (data.test) return { type: 'report', report: { connectionId: data.connectionId, ok: false, problem: error.message, identity: null, account: null }, clearCookie };
  if (data.errorRedirectUrl && trusts(project, data.errorRedirectUrl)) {
    const url = new URL(data.errorRedirectUrl);
    url.searchParams.set('errorCode', error.errorCode);
    url.searchParams.set('message', error.message);
    url.searchParams.set('details', JSON.stringify(error.details ?? {}));
    return { type: 'redirect', location: url.toString(), clearCookie };
  }
  return { type: 'error', error, clearCookie };
}

async function takeFlow(services: Services, innerState: string, connectionId: string) {
  const row = /^[A-Za-z0-9_-]{20,128}$/.test(innerState) ? await flow.takeState(services.db, innerState) : null;
  const data = row?.data as SsoFlowState | undefined;
  if (!row || data?.kind !== 'sso' || data.connectionId !== connectionId) return null;
  const project = await services.projects.get(row.projectId);
  if (!project) return null;
  return { row, data, project };
}

/** The OIDC provider's redirect back (GET /auth/sso/callback/{connection}). */
export async function finishOidcSignIn(services: Services, input: { connectionId: string; query: URLSearchParams; cookieHeader: string | null; origin?: unknown }): Promise<SsoOutcome> {
  const innerState = input.query.get('state') ?? '';
  const clearCookie = /^[A-Za-z0-9_-]{20,128}$/.test(innerState) ? clearInnerCookie(services, innerState) : undefined;
  const connection = await sso.findConnectionById(services.db, input.connectionId);
  const cookieOk = !!clearCookie && readCookie(input.cookieHeader, innerCookieName(services, innerState)) === 'true';
  const taken = cookieOk ? await takeFlow(services, innerState, input.connectionId) : null;
  if (!connection || !taken || connection.type !== 'oidc') {
    return { type: 'error', error: refused(null, connection, 'this sign-in was not started in this browser, or has already been used.'), clearCookie };
  }
  const { project, data, row } = taken;
  if (row.expiresAt.getTime() <= Date.now()) return failure(project, data, new KnownErrors.OuterOAuthTimeout(), clearCookie);
  if (input.query.get('error')) return failure(project, data, refused(project, connection, `the identity provider answered ${input.query.get('error')}.`), clearCookie);
  const settings = connection.settings as OidcSettings;
  let claims: Record<string, unknown>;
  try {
    const config = await discoverOidc(services, settings, clientSecretOf(connection));
    const callbackUrl = new URL(oidcRedirectUri(services.config.publicUrl, connection.id));
    callbackUrl.search = input.query.toString();
    claims = await oidcCallback(config, { callbackUrl, state: innerState, codeVerifier: data.oidc!.codeVerifier, nonce: data.oidc!.nonce });
  } catch (err) {
    return failure(project, data, refused(project, connection, `the identity provider's answer was refused (${libraryReason(err)}).`), clearCookie);
  }
  if (claims.email_verified === false) return failure(project, data, refused(project, connection, 'the identity provider has not verified the email address.'), clearCookie);
  const identity = readIdentity(String(claims.sub), claims, settings.attributeMapping, null);
  return complete(services, project, connection, identity, data, clearCookie);
}

/** The library's message, with its cause's (openid-client's cause names the claim that failed). */
function libraryReason(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error && err.cause.message !== err.message ? `${err.message}: ${err.cause.message}` : err.message;
}

/** A SAML response posted to the ACS ({public URL}/sso/saml/{connection}/acs). */
export async function finishSamlSignIn(services: Services, input: { connectionId: string; samlResponse: string | null; relayState: string | null }): Promise<SsoOutcome> {
  const connection = await sso.findConnectionById(services.db, input.connectionId);
  if (!connection || connection.type !== 'saml' || !connection.enabled) return { type: 'error', error: refused(null, connection, 'there is no such SAML connection.') };
  const settings = connection.settings as SamlSettings;
  const project = await services.projects.get(connection.projectId);
  if (!project) return { type: 'error', error: refused(null, connection, 'there is no such SAML connection.') };
  if (!input.samlResponse) return { type: 'error', error: refused(project, connection, 'the request carries no SAMLResponse.') };
  const taken = input.relayState ? await takeFlow(services, input.relayState, connection.id) : null;
  if (!taken) {
    // Unsolicited (IdP-initiated), or a flow already used: only the former may go on, and only where allowed.
    if (input.relayState || !settings.allowIdpInitiated) {
      return { type: 'error', error: refused(project, connection, input.relayState ? 'this sign-in has already been used, or has expired.' : 'IdP-initiated sign-in is not allowed for this connection; start the sign-in from the app.') };
    }
  }
  let identity: SsoIdentity;
  try {
    const profile = await validateSamlResponse(services.config.publicUrl, connection.id, settings, input.samlResponse, taken?.data.samlRequestId ?? null);
    const facts = assertionFacts(profile.getAssertionXml?.() ?? '');
    if (facts.recipient !== `${services.config.publicUrl}/sso/saml/${connection.id}/acs`) throw new Error(`the assertion's Recipient is ${facts.recipient ?? 'missing'}, not this connection's ACS.`);
    if (!facts.id) throw new Error('the assertion has no ID.');
    const keepUntil = new Date(Math.max(facts.notOnOrAfter?.getTime() ?? 0, Date.now()) + 10 * 60_000);
    if (!(await sso.useAssertionId(services.db, connection.id, facts.id, keepUntil))) throw new Error('this assertion has been used before (a replay).');
    const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
    const nameIdEmail = /emailAddress$/.test(profile.nameIDFormat ?? '') || /^[^@\s]+@[^@\s]+$/.test(profile.nameID) ? profile.nameID : null;
    identity = readIdentity(profile.nameID, attributes, settings.attributeMapping, nameIdEmail);
  } catch (err) {
    const error = refused(project, connection, `the identity provider's response was refused (${err instanceof Error ? err.message : String(err)}).`);
    return taken ? failure(project, taken.data, error) : { type: 'error', error };
  }
  if (!taken) return idpInitiatedBounce(project, connection);
  if (taken.row.expiresAt.getTime() <= Date.now()) return failure(project, taken.data, new KnownErrors.OuterOAuthTimeout());
  return complete(services, project, connection, identity, taken.data);
}

/**
 * A valid IdP-initiated response is not turned into a session directly (no app asked for it, so there is no PKCE
 * binding): the browser goes to the project's sign-in page, which starts an SP-initiated sign-in with this
 * connection; the IdP, already signed in, answers it at once.
 */
function idpInitiatedBounce(project: Project, connection: sso.SsoConnectionRow): SsoOutcome {
  const domain = project.config.domains[0];
  if (!domain) return { type: 'error', error: new KnownErrors.SsoSignInFailed('the project has no trusted domain to continue the sign-in on.') };
  const url = new URL(`${domain.handler_path.replace(/\/$/, '')}/sign-in`, domain.domain);
  url.searchParams.set('sso_connection_id', connection.id);
  return { type: 'redirect', location: url.toString() };
}

/** The user for the identity (found, linked or created), in the team, and the app's authorization code. */
async function complete(services: Services, project: Project, connection: sso.SsoConnectionRow, identity: SsoIdentity, data: SsoFlowState, clearCookie?: string): Promise<SsoOutcome> {
  if (data.test) return { type: 'report', report: await testReport(services, project.id, connection, identity), clearCookie };
  const domain = identity.email ? emailDomainOf(identity.email) : null;
  const owner = domain ? await sso.domainOwner(services.db, project.id, domain) : null;
  if (!identity.email || owner?.teamId !== connection.teamId) {
    return failure(project, data, refused(project, connection, `${identity.email ?? 'the account (it has no email address)'} is not at a verified domain of this organization.`), clearCookie);
  }
  const email = identity.email;
  const code = randomBytes(32).toString('hex');
  const run = () => services.db.transaction(async (tx) => {
    let userId = await sso.findIdentity(tx, connection.id, identity.subject);
    let isNewUser = false;
    if (userId && !(await users.exists(tx, project.id, userId))) userId = null;
    if (!userId) {
      const existing = await users.findByAuthEmail(tx, project.id, email);
      if (existing) {
        userId = existing.userId;
      } else {
        userId = (await createUserIn(tx, services.events, { project, user: { displayName: identity.displayName, primaryEmail: email, primaryEmailVerified: true, primaryEmailAuthEnabled: true } })).user.id;
        isNewUser = true;
      }
      await sso.insertIdentity(tx, { projectId: project.id, connectionId: connection.id, subject: identity.subject, userId });
    }
    if (!isNewUser) await refreshProfile(tx, services, project, userId, identity, email);
    if (!(await isMember(tx, project.id, connection.teamId, userId))) await joinTeam(services.events, tx, project, connection.teamId, userId);
    await syncSsoGroupGrants(tx, services.events, project.id, connection.teamId, userId, identity.groups);
    await flow.purgeExpiredCodes(tx, project.id);
    await flow.insertCode(tx, {
      codeHash: hashSecret(code), projectId: project.id, userId, redirectUri: data.redirectUri, codeChallenge: data.codeChallenge,
      codeChallengeMethod: data.codeChallengeMethod, isNewUser, mfaSatisfied: connection.idpEnforcesMfa,
      afterCallbackRedirectUrl: data.afterCallbackRedirectUrl, expiresAt: new Date(Date.now() + AUTHORIZATION_CODE_LIFETIME_MS),
    });
  });
  try {
    try {
      await run();
    } catch (err) {
      // Two first sign-ins of one identity at once: the loser's transaction is undone; once more, it finds the winner's.
      if (!isUniqueViolation(err) && !(err instanceof KnownErrors.UserEmailAlreadyExists)) throw err;
      await run();
    }
  } catch (err) {
    if (err instanceof KnownError) return failure(project, data, err, clearCookie);
    throw err;
  }
  const target = new URL(data.redirectUri);
  target.searchParams.set('code', code);
  target.searchParams.set('state', data.state);
  return { type: 'redirect', location: target.toString(), clearCookie };
}

/** Later sign-ins bring the IdP's name and address (an address at the same verified domains only). */
async function refreshProfile(tx: Parameters<typeof lockUser>[0], services: Services, project: Project, userId: string, identity: SsoIdentity, email: string) {
  const row = await users.load(tx, project.id, userId);
  if (!row) return;
  const changes: { display_name?: string; primary_email?: string; primary_email_verified?: boolean; primary_email_auth_enabled?: boolean } = {};
  if (identity.displayName && identity.displayName !== row.display_name) changes.display_name = identity.displayName;
  if (row.primary_email?.toLowerCase() !== email) Object.assign(changes, { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true });
  if (Object.keys(changes).length === 0) return;
  await lockUser(tx, project.id, userId);
  await applyUserUpdate(tx, services, project, userId, changes, false);
  const updated = await users.load(tx, project.id, userId);
  await services.events.emit(tx, project.id, 'user.updated', updated && serverUserView(updated));
}
