// Wire schemas of the outer OAuth flow (protocol-auth §3.6): the authorize query and connected-account tokens.
import { Type, type Static } from '@sinclair/typebox';
import { Strict, Url, UserIdOrMe } from './common.ts';

/** `GET /auth/oauth/authorize/{provider_id}` query (§3.6.1); any other parameter is a SCHEMA_ERROR. */
export const OAuthAuthorizeQuery = Strict({
  client_id: Type.String(),
  client_secret: Type.String(),
  redirect_uri: Url(),
  scope: Type.String(),
  state: Type.String(),
  grant_type: Type.Literal('authorization_code'),
  code_challenge: Type.String({ minLength: 1 }),
  // Checked here rather than at the callback (where the reference answers 500 for other values).
  code_challenge_method: Type.Union([Type.Literal('S256'), Type.Literal('plain')]),
  response_type: Type.Literal('code'),
  type: Type.Optional(Type.Union([Type.Literal('authenticate'), Type.Literal('link')])),
  token: Type.Optional(Type.String()),
  provider_scope: Type.Optional(Type.String()),
  error_redirect_url: Type.Optional(Url()),
  error_redirect_uri: Type.Optional(Url()),
  after_callback_redirect_url: Type.Optional(Url()),
});
export type OAuthAuthorizeQuery = Static<typeof OAuthAuthorizeQuery>;

/** `POST /connected-accounts/{user_id}/{provider_id}/access-token` body (§3.6.5). */
export const ConnectedAccountAccessTokenRequest = Strict({ scope: Type.Optional(Type.String()) });
export const ConnectedAccountAccessToken = Strict({ access_token: Type.String() });

export const ProviderParams = Type.Object({ provider_id: Type.String() });
/** The request body may be omitted. */
export const ConnectedAccountAccessTokenBody = Type.Optional(ConnectedAccountAccessTokenRequest);
export const ConnectedAccountParams = Type.Object({ user_id: UserIdOrMe(), provider_id: Type.String() });
/**
 * The token endpoint's form (RFC 6749 §4.1.3, §6). Open: each grant reads its own fields; the ones declared here
 * are, so that a non-string value is a schema error rather than reaching a hash or a query.
 */
export const OAuthTokenBody = Type.Object({
  grant_type: Type.Union([Type.Literal('authorization_code'), Type.Literal('refresh_token')]),
  refresh_token: Type.Optional(Type.String()),
  client_id: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String()),
}, { additionalProperties: true });
