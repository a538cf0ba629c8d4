// CLI login (protocol-auth §3.7; the flow: auth/cli-login.ts).
import { ACCESS_TYPES } from '@gatehouse/shared/constants';
import { Success } from '@gatehouse/shared/schemas/common';
import { CliAuthCompleteRequest, CliAuthCreateRequest, CliAuthCreateResponse, CliAuthPollRequest, CliAuthPollResponse } from '@gatehouse/shared/schemas/cli-auth';
import { route } from '../http/route';
import { HttpResult } from '../http/respond';
import { completeCliLogin, pollCliLogin, startCliLogin } from '../auth/cli-login';

export const cliAuthRoutes = [
  route({
    method: 'POST', path: '/auth/cli', summary: 'Start a CLI login', tags: ['CLI'],
    access: [...ACCESS_TYPES],
    body: CliAuthCreateRequest,
    response: CliAuthCreateResponse,
    async handler({ services, auth, body }) {
      const started = await startCliLogin(services, { projectId: auth.project.id, expiresInMs: body?.expires_in_millis });
      return { polling_code: started.pollingCode, login_code: started.loginCode, expires_at: started.expiresAt.toISOString() };
    },
  }),
  route({
    method: 'POST', path: '/auth/cli/poll', summary: 'Poll a CLI login for its refresh token', tags: ['CLI'],
    access: [...ACCESS_TYPES],
    body: CliAuthPollRequest,
    response: CliAuthPollResponse,
    async handler({ services, auth, body }) {
      const poll = await pollCliLogin(services, { projectId: auth.project.id, pollingCode: body.polling_code });
      if (poll.status !== 'success') return { status: poll.status };
      return HttpResult.json({ status: 'success', refresh_token: poll.refreshToken }, 201);
    },
  }),
  route({
    method: 'POST', path: '/auth/cli/complete', summary: 'Complete a CLI login from a signed-in browser', tags: ['CLI'],
    access: [...ACCESS_TYPES],
    body: CliAuthCompleteRequest,
    response: Success,
    async handler({ services, auth, body }) {
      await completeCliLogin(services, { projectId: auth.project.id, loginCode: body.login_code, refreshToken: body.refresh_token });
      return { success: true as const };
    },
  }),
];
