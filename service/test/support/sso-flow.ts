// The app's side of an SSO sign-in over HTTP, as the client library does it: /auth/sso/authorize with PKCE (the
// OAuth parameters), and the code the flow ends with redeemed at /auth/oauth/token.
import { createHash, randomBytes } from 'node:crypto';
import type { TestProject } from './projects';

export const APP_CALLBACK = 'http://localhost:12345/handler/oauth-callback';
const rand = (n = 16) => randomBytes(n).toString('base64url');

export interface SsoStart { status: number; location: string; cookie: string; state: string; verifier: string; body: string }

export async function startSso(p: TestProject, params: { email?: string; connection_id?: string; error_redirect_url?: string }): Promise<SsoStart> {
  const verifier = rand(32);
  const state = rand();
  const q = new URLSearchParams({
    client_id: p.id, client_secret: p.keys.publishableClientKey, redirect_uri: APP_CALLBACK, scope: 'legacy', state,
    grant_type: 'authorization_code', code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256', response_type: 'code', ...params,
  });
  const res = await fetch(`${p.url}/api/v1/auth/sso/authorize?${q}`, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') ?? '', cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, state, verifier, body: await res.text() };
}

/** The app redeems the code it was sent back with; the token answer (or error) as JSON. */
export async function redeem(p: TestProject, location: string, verifier: string) {
  const code = new URL(location).searchParams.get('code') ?? '';
  return p.client.post('/auth/oauth/token', {
    grant_type: 'authorization_code', code, redirect_uri: APP_CALLBACK, client_id: p.id, client_secret: p.keys.publishableClientKey, code_verifier: verifier,
  }, { form: true, headers: { accept: 'application/json' } });
}

/** Posts a SAML response to an ACS as a browser's auto-submitted form does. */
export async function postToAcs(acsUrl: string, samlResponse: string, relayState: string | null) {
  const form = new URLSearchParams({ SAMLResponse: samlResponse, ...(relayState !== null ? { RelayState: relayState } : {}) });
  const res = await fetch(acsUrl, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') ?? '', text: await res.text(), type: res.headers.get('content-type') ?? '' };
}
