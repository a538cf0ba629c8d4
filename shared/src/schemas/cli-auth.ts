// CLI login (protocol-auth §3.7).
import { Type } from '@sinclair/typebox';
import { Strict } from './common.ts';

/** Upper bound of a CLI login attempt's lifetime (24 h); the default is 2 h. */
export const CLI_AUTH_MAX_EXPIRES_IN_MS = 86_400_000;
export const CLI_AUTH_DEFAULT_EXPIRES_IN_MS = 7_200_000;

export const CliAuthCreateRequest = Type.Optional(Strict({
  expires_in_millis: Type.Optional(Type.Number({ minimum: 1, maximum: CLI_AUTH_MAX_EXPIRES_IN_MS })),
}));
export const CliAuthCreateResponse = Strict({ polling_code: Type.String(), login_code: Type.String(), expires_at: Type.String() });

export const CliAuthPollRequest = Strict({ polling_code: Type.String() });
export const CliAuthPollResponse = Type.Union([
  Strict({ status: Type.Union([Type.Literal('waiting'), Type.Literal('expired'), Type.Literal('used')]) }),
  Strict({ status: Type.Literal('success'), refresh_token: Type.String() }),
]);

export const CliAuthCompleteRequest = Strict({ login_code: Type.String(), refresh_token: Type.String() });
