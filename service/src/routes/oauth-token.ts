// POST /auth/oauth/token: the OAuth 2 token endpoint of the "outer" flow (client_id = project id,
// client_secret = publishable key). The SDK refreshes access tokens here; the authorization-code grant
// finishes third-party sign-in.
import { OAuthTokenBody } from '@gatehouse/shared/schemas/oauth';
import { route } from '../http/route';
import { HttpResult } from '../http/respond';
import { authorizationCodeGrant, OAuthRequestError } from '../oauth/authorization-code-grant';
import { refreshTokenGrant } from '../oauth/refresh-token-grant';

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function oauthError(error: string, description: string) {
  return HttpResult.json({ error, error_description: description }, 400, NO_STORE);
}

/** Client credentials from the body (client_secret_post) or an HTTP Basic header. */
export function clientCredentials(body: Record<string, string | undefined>, headers: Headers) {
  const basic = headers.get('authorization');
  if (basic?.startsWith('Basic ')) {
    const decoded = Buffer.from(basic.slice(6), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    // Malformed percent-encoding leaves no usable credentials (INVALID_OAUTH_CLIENT_ID_OR_SECRET), not a crash.
    const decode = (v: string) => { try { return decodeURIComponent(v); } catch { return undefined; } };
    if (i >= 0) return { clientId: decode(decoded.slice(0, i)), clientSecret: decode(decoded.slice(i + 1)) };
  }
  return { clientId: body.client_id, clientSecret: body.client_secret };
}

export const tokenRoutes = [
  route({
    method: 'POST', path: '/auth/oauth/token', summary: 'OAuth 2 token endpoint (refresh_token and authorization_code grants)', tags: ['OAuth'],
    // oauth4webapi (the SDK) posts forms here; JSON is accepted too (protocol-auth §2.8).
    bodyTypes: ['application/x-www-form-urlencoded', 'application/json'],
    access: 'optional',
    body: OAuthTokenBody,
    async handler({ services, body, headers, origin }) {
      const b = body as Record<string, string | undefined>;
      const { clientId, clientSecret } = clientCredentials(b, headers);
      if (b.grant_type === 'authorization_code') {
        try {
          return HttpResult.json(await authorizationCodeGrant(services, b, clientId, clientSecret, origin), 200, NO_STORE);
        } catch (err) {
          if (err instanceof OAuthRequestError) return oauthError(err.error, err.description);
          throw err;
        }
      }
      if (!b.refresh_token) return oauthError('invalid_request', 'Missing parameter: `refresh_token`');
      const { accessToken, expiresInSeconds } = await refreshTokenGrant(services, { clientId, clientSecret, refreshToken: b.refresh_token, origin });
      return HttpResult.json({ access_token: accessToken, token_type: 'Bearer', expires_in: expiresInSeconds, scope: 'legacy' }, 200, NO_STORE);
    },
  }),
];
