// The console's "Test sign-in" of an SSO connection (issue 28): a flow like a sign-in's, marked as a test, whose
// end is a report of what the IdP sent (sso/connection-test-report.ts) instead of a session. Started by server or
// admin access, it answers the URL the console opens in a new window: the IdP's sign-in for SAML; for OIDC a step of
// Gatehouse's own first, which binds the flow to that window with the flow's cookie (the callback requires it, as
// for any OIDC sign-in) before sending it on to the provider.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as sso from '../repo/sso';
import * as flow from '../repo/oauth-flow';
import { sendToIdp, ssoFlowCookie, type SsoFlowState } from './sign-in';

export async function startConnectionTest(services: Services, input: { projectId: string; teamId: string; connectionId: string }): Promise<{ url: string }> {
  const connection = await sso.findConnection(services.db, input.projectId, input.connectionId, input.teamId);
  if (!connection) throw new KnownErrors.SsoConnectionNotFound(input.connectionId);
  const { location, innerState } = await sendToIdp(services, input.projectId, connection, {
    kind: 'sso', connectionId: connection.id, redirectUri: '', state: '', codeChallenge: '', codeChallengeMethod: 'S256',
    errorRedirectUrl: null, afterCallbackRedirectUrl: null, samlRequestId: null, oidc: null, test: true,
  });
  return { url: connection.type === 'oidc' ? `${services.config.publicUrl}/api/v1/auth/sso/test/${innerState}` : location };
}

/** GET /auth/sso/test/{state}: an OIDC test's window gets the flow's cookie and goes to the provider. */
export async function openConnectionTest(services: Services, innerState: string): Promise<{ location: string; setCookie: string }> {
  const row = /^[A-Za-z0-9_-]{20,128}$/.test(innerState) ? await flow.findState(services.db, innerState) : null;
  const data = row?.data as SsoFlowState | undefined;
  if (!row || data?.kind !== 'sso' || !data.test || !data.idpLocation || row.expiresAt.getTime() <= Date.now()) {
    throw new StatusError(404, 'This connection test has expired or does not exist. Start it again from the console.');
  }
  return { location: data.idpLocation, setCookie: ssoFlowCookie(services, innerState) };
}
