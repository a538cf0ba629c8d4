// The CLI login confirmation (POST /auth/cli/complete): hands the CLI the signed-in session's refresh token.
import { stackAppInternalsSymbol, type CurrentUser } from '@gatehouse/shared/client';
import type { AnyClientApp } from '../context';

export async function completeCliLogin(app: AnyClientApp, user: CurrentUser, loginCode: string): Promise<void> {
  const { refreshToken } = await user.currentSession.getTokens();
  // Known errors (an expired or unknown login code) are thrown by the client library.
  await app[stackAppInternalsSymbol].sendRequest('/auth/cli/complete', {
    method: 'POST',
    body: { login_code: loginCode, refresh_token: refreshToken },
  });
}
