// Fields every user object has (client-library §1.7.1) and the session-bound `Auth` part (§1.7.2, §3.8).
import { isKnownErrorInFamily } from '../../known-errors/base.ts';
import { bytesToBase64 } from '../../rules/base64.ts';
import { ACCESS_TOKEN_MIN_REMAINING_MS } from '../constants.ts';
import type { ClientCore } from '../core.ts';
import type { InternalSession } from '../session.ts';
import { compact, type ReadonlyJson } from './common.ts';
import type { TeamJson } from './teams.ts';
import type { PasskeyRegistrationResult } from '../passkey.ts';
import type { ClientUserJson, ClientUserUpdateBody, EmptyBody, OAuthProviderLinkJson } from '../wire.ts';

// The wire shapes are the service's response schemas (shared/src/schemas): a field changed there changes these.
export type OAuthProviderLink = OAuthProviderLinkJson;

/** A user as /users/me answers it; a server's answer (ServerUserJson) carries more, its team included. */
export type UserJson = Omit<ClientUserJson, 'selected_team'> & { selected_team: TeamJson | null };

export interface BaseUser {
  readonly id: string;
  readonly displayName: string | null;
  readonly primaryEmail: string | null;
  readonly primaryEmailVerified: boolean;
  readonly profileImageUrl: string | null;
  readonly signedUpAt: Date;
  /** Whatever JSON the app stored (the SDK types it `any`; read it as `unknown` and narrow). */
  readonly clientMetadata: unknown;
  readonly clientReadOnlyMetadata: unknown;
  readonly hasPassword: boolean;
  /** @deprecated */
  readonly emailAuthEnabled: boolean;
  readonly otpAuthEnabled: boolean;
  readonly passkeyAuthEnabled: boolean;
  /** @deprecated passed through unchanged: `{id, account_id, email}` items */
  readonly oauthProviders: readonly OAuthProviderLink[];
  readonly isMultiFactorRequired: boolean;
  readonly isAnonymous: boolean;
  toClientJson(): UserJson;
}

export function baseUserFields(json: UserJson): BaseUser {
  return {
    id: json.id,
    displayName: json.display_name,
    primaryEmail: json.primary_email,
    primaryEmailVerified: json.primary_email_verified,
    profileImageUrl: json.profile_image_url,
    signedUpAt: new Date(json.signed_up_at_millis),
    clientMetadata: json.client_metadata,
    clientReadOnlyMetadata: json.client_read_only_metadata,
    hasPassword: json.has_password,
    emailAuthEnabled: json.auth_with_email,
    otpAuthEnabled: json.otp_auth_enabled,
    passkeyAuthEnabled: json.passkey_auth_enabled,
    oauthProviders: json.oauth_providers,
    isMultiFactorRequired: json.requires_totp_mfa,
    isAnonymous: json.is_anonymous,
    toClientJson: () => json,
  };
}

export type AuthTokens = { accessToken: string | null; refreshToken: string | null };

export interface Auth {
  readonly _internalSession: InternalSession;
  readonly currentSession: { getTokens(): Promise<AuthTokens> };
  /** Tokens to ship to your own back end; there pass them (or the request) as `tokenStore`. */
  getAuthJson(): Promise<AuthTokens>;
  /** `{"x-stack-auth": JSON}` for requests to your own back end. */
  getAuthHeaders(): Promise<{ 'x-stack-auth': string }>;
  signOut(options?: { redirectUrl?: string }): Promise<void>;
  registerPasskey(options?: { hostname?: string }): Promise<PasskeyRegistrationResult>;
}

export async function sessionTokens(session: InternalSession): Promise<AuthTokens> {
  const tokens = await session.getOrFetchLikelyValidTokens(ACCESS_TOKEN_MIN_REMAINING_MS);
  return { accessToken: tokens?.accessToken ?? null, refreshToken: tokens?.refreshToken ?? null };
}

/**
 * §3.8: revoke the session on the server (a dead refresh token is fine), forget it locally, redirect. Any other
 * failure is thrown with the session still valid, as in 2.8.3: the server may still honour it, so wiping the
 * tokens would only hide a session the user meant to end (they can retry).
 */
export async function signOutSession(core: ClientCore, session: InternalSession, options?: { redirectUrl?: string }): Promise<void> {
  const tokens = await session.getOrFetchLikelyValidTokens(ACCESS_TOKEN_MIN_REMAINING_MS);
  if (tokens) {
    try {
      await core.request<EmptyBody>('/auth/sessions/current', { method: 'DELETE', body: {} }, session, 'client');
    } catch (err) {
      if (!isKnownErrorInFamily(err, 'REFRESH_TOKEN_ERROR')) throw err;
    }
  }
  session.markInvalid();
  if (options?.redirectUrl) await core.redirector.navigate(options.redirectUrl, { replace: true });
  else await core.redirector.redirectTo('afterSignOut');
}

export function authPart(core: ClientCore, session: InternalSession, afterPasskey: () => Promise<void>): Auth {
  return {
    _internalSession: session,
    currentSession: { getTokens: () => sessionTokens(session) },
    getAuthJson: () => sessionTokens(session),
    getAuthHeaders: async () => ({ 'x-stack-auth': JSON.stringify(await sessionTokens(session)) }),
    signOut: (options) => signOutSession(core, session, options),
    registerPasskey: async (options) => {
      // Loaded on first use, like the passkey sign-in.
      const { registerPasskey } = await import('../passkey.ts');
      const result = await registerPasskey(core, session, options);
      await afterPasskey();
      return result;
    },
  };
}

/** Client `UserUpdateOptions` (§1.8). */
export type UserUpdateOptions = {
  displayName?: string | null;
  clientMetadata?: ReadonlyJson;
  selectedTeamId?: string | null;
  totpMultiFactorSecret?: Uint8Array | null;
  profileImageUrl?: string | null;
  otpAuthEnabled?: boolean;
  passkeyAuthEnabled?: boolean;
};

export function userUpdateToWire(options: UserUpdateOptions): ClientUserUpdateBody {
  return compact({
    display_name: options.displayName,
    client_metadata: options.clientMetadata,
    selected_team_id: options.selectedTeamId,
    totp_secret_base64: totpToWire(options.totpMultiFactorSecret),
    profile_image_url: options.profileImageUrl,
    otp_auth_enabled: options.otpAuthEnabled,
    passkey_auth_enabled: options.passkeyAuthEnabled,
  });
}

export function totpToWire(secret: Uint8Array | null | undefined): string | null | undefined {
  return secret === undefined ? undefined : secret === null ? null : bytesToBase64(secret);
}
