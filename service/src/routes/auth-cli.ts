// CLI login (protocol-auth §3.7): the CLI creates an attempt and polls with the polling code; the user's browser
// completes it with the login code and its own refresh token, which the CLI collects once.
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { generateSecureCode } from '@gatehouse/shared/rules/codes';
import { Success } from '@gatehouse/shared/schemas/common';
import {
  CLI_AUTH_DEFAULT_EXPIRES_IN_MS, CliAuthCompleteRequest, CliAuthCreateRequest, CliAuthCreateResponse, CliAuthPollRequest, CliAuthPollResponse,
} from '@gatehouse/shared/schemas/cli-auth';
import { route } from '../http/route';
import { HttpResult } from '../http/respond';
import * as cliAuth from '../repo/cli-auth';
import * as sessions from '../repo/sessions';
import { decryptString, encryptString } from '../tokens/encryption';

const TOKEN_PURPOSE = 'cli-auth-refresh-token';
const INVALID_LOGIN_CODE = 'Invalid login code or the code has expired';
const PROJECT_MISMATCH = 'Project ID mismatch; please ensure that you are using the correct app url.';

export const cliAuthRoutes = [
  route({
    method: 'POST', path: '/auth/cli', summary: 'Start a CLI login', tags: ['CLI'],
    access: [...ACCESS_TYPES],
    body: CliAuthCreateRequest,
    response: CliAuthCreateResponse,
    async handler({ services, auth, body }) {
      const pollingCode = generateSecureCode();
      const loginCode = generateSecureCode();
      const expiresAt = new Date(Date.now() + (body?.expires_in_millis ?? CLI_AUTH_DEFAULT_EXPIRES_IN_MS));
      await cliAuth.create(services.db, { projectId: auth.project.id, pollingCode, loginCode, expiresAt });
      return { polling_code: pollingCode, login_code: loginCode, expires_at: expiresAt.toISOString() };
    },
  }),
  route({
    method: 'POST', path: '/auth/cli/poll', summary: 'Poll a CLI login for its refresh token', tags: ['CLI'],
    access: [...ACCESS_TYPES],
    body: CliAuthPollRequest,
    response: CliAuthPollResponse,
    async handler({ services, auth, body }) {
      const attempt = await cliAuth.findByPollingCode(services.db, auth.project.id, body.polling_code);
      if (!attempt) throw new KnownErrors.InvalidPollingCode();
      if (attempt.expiresAt.getTime() <= Date.now()) return { status: 'expired' as const };
      if (attempt.usedAt) return { status: 'used' as const };
      if (!attempt.hasToken) return { status: 'waiting' as const };
      const encrypted = await cliAuth.collectRefreshToken(services.db, auth.project.id, attempt.id);
      // A concurrent poll collected it between our read and our update.
      if (!encrypted) return { status: 'used' as const };
      const refreshToken = decryptString(services.secret, TOKEN_PURPOSE, encrypted);
      return HttpResult.json({ status: 'success', refresh_token: refreshToken }, 201);
    },
  }),
  route({
    method: 'POST', path: '/auth/cli/complete', summary: 'Complete a CLI login from a signed-in browser', tags: ['CLI'],
    access: [...ACCESS_TYPES],
    body: CliAuthCompleteRequest,
    response: Success,
    async handler({ services, auth, body }) {
      const projectId = auth.project.id;
      // The login code first, as the reference does: unknown, expired or completed, then another project's.
      const codeProject = await cliAuth.projectOfLiveLoginCode(services.db, body.login_code);
      if (codeProject === null) throw new StatusError(400, INVALID_LOGIN_CODE);
      if (codeProject !== projectId) throw new StatusError(400, PROJECT_MISMATCH);
      // Unlike the reference server (which stores the token as given), only a live session of this project
      // can be handed to the CLI.
      const session = await sessions.findByRefreshToken(services.db, projectId, body.refresh_token);
      if (!session) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
      const encrypted = encryptString(services.secret, TOKEN_PURPOSE, body.refresh_token);
      // A concurrent completion (or the expiry) may have come in between: exactly one completion stores its token.
      if (!(await cliAuth.complete(services.db, projectId, body.login_code, encrypted))) throw new StatusError(400, INVALID_LOGIN_CODE);
      return { success: true as const };
    },
  }),
];
