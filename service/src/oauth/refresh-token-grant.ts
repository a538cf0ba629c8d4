// The refresh_token grant of POST /auth/oauth/token (protocol-auth §2.8): the SDK's way to a new access token, with
// the project as the OAuth client (client_id = project id, client_secret = publishable key).
import type { Services } from '../services';
import type { ClientOrigin } from '../auth/activity';
import { refreshAccessToken } from '../auth/session-management';
import { assertValidClient } from './authorization-code-grant';

export interface RefreshTokenGrant { clientId?: string; clientSecret?: string; refreshToken: string; origin: ClientOrigin }

export async function refreshTokenGrant(services: Services, input: RefreshTokenGrant): Promise<{ accessToken: string; expiresInSeconds: number }> {
  const project = await assertValidClient(services, input.clientId, input.clientSecret, { secretRequired: true });
  const accessToken = await refreshAccessToken(services, { projectId: project.id, refreshToken: input.refreshToken, origin: input.origin });
  return { accessToken, expiresInSeconds: services.config.accessTokenLifetimeSeconds };
}
