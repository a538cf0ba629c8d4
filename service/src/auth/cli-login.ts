// CLI login (protocol-auth §3.7): the CLI creates an attempt and polls with the polling code; the user's browser
// completes it with the login code and its own refresh token, which the CLI collects once.
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { generateSecureCode } from '@gatehouse/shared/rules/codes';
import { CLI_AUTH_DEFAULT_EXPIRES_IN_MS } from '@gatehouse/shared/schemas/cli-auth';
import type { Services } from '../services';
import * as cliAuth from '../repo/cli-auth';
import * as sessions from '../repo/sessions';
import { decryptString, encryptString } from '../tokens/encryption';
import { assertSessionLive } from './session-lifetime';

const TOKEN_PURPOSE = 'cli-auth-refresh-token';
const INVALID_LOGIN_CODE = 'Invalid login code or the code has expired';
const PROJECT_MISMATCH = 'Project ID mismatch; please ensure that you are using the correct app url.';

export async function startCliLogin(services: Services, input: { projectId: string; expiresInMs?: number }) {
  const pollingCode = generateSecureCode();
  const loginCode = generateSecureCode();
  const expiresAt = new Date(Date.now() + (input.expiresInMs ?? CLI_AUTH_DEFAULT_EXPIRES_IN_MS));
  await cliAuth.create(services.db, { projectId: input.projectId, pollingCode, loginCode, expiresAt });
  return { pollingCode, loginCode, expiresAt };
}

export type CliPoll = { status: 'expired' | 'used' | 'waiting' } | { status: 'success'; refreshToken: string };

/** Where the login stands; once completed, the refresh token, collected exactly once. */
export async function pollCliLogin(services: Services, input: { projectId: string; pollingCode: string }): Promise<CliPoll> {
  const attempt = await cliAuth.findByPollingCode(services.db, input.projectId, input.pollingCode);
  if (!attempt) throw new KnownErrors.InvalidPollingCode();
  if (attempt.expiresAt.getTime() <= Date.now()) return { status: 'expired' };
  if (attempt.usedAt) return { status: 'used' };
  if (!attempt.hasToken) return { status: 'waiting' };
  const encrypted = await cliAuth.collectRefreshToken(services.db, input.projectId, attempt.id);
  // A concurrent poll collected it between our read and our update.
  if (!encrypted) return { status: 'used' };
  return { status: 'success', refreshToken: decryptString(services.secret, TOKEN_PURPOSE, encrypted) };
}

/** Hands the browser's refresh token to the waiting CLI. */
export async function completeCliLogin(services: Services, input: { projectId: string; loginCode: string; refreshToken: string }): Promise<void> {
  const { projectId } = input;
  // The login code first, as the reference does: unknown, expired or completed, then another project's.
  const codeProject = await cliAuth.projectOfLiveLoginCode(services.db, input.loginCode);
  if (codeProject === null) throw new StatusError(400, INVALID_LOGIN_CODE);
  if (codeProject !== projectId) throw new StatusError(400, PROJECT_MISMATCH);
  // Unlike the reference server (which stores the token as given), only a live session of this project can be handed
  // to the CLI.
  const session = await sessions.findByRefreshToken(services.db, projectId, input.refreshToken);
  if (!session) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
  await assertSessionLive(services, projectId, session);
  const encrypted = encryptString(services.secret, TOKEN_PURPOSE, input.refreshToken);
  // A concurrent completion (or the expiry) may have come in between: exactly one completion stores its token.
  if (!(await cliAuth.complete(services.db, projectId, input.loginCode, encrypted))) throw new StatusError(400, INVALID_LOGIN_CODE);
}
