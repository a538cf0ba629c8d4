// The authorization_code grant of the outer OAuth flow (protocol-auth §3.6.3).
import type { Services } from '../services';
import type { HttpResult } from '../http/respond';
import { oauthError } from '../routes/oauth-token';

export async function authorizationCodeGrant(_services: Services, _body: Record<string, string | undefined>, _clientId?: string, _clientSecret?: string, _headers?: Headers): Promise<HttpResult> {
  return oauthError('unsupported_grant_type', 'The authorization_code grant is not available yet.');
}
