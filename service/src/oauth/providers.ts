// The 11 OAuth providers Gatehouse signs in with (protocol-auth §3.6): real endpoints, base scopes, and how each
// provider's user-info response(s) become a ProviderUserInfo. Pure data + pure mappers; fetching lives in client.ts.

import { OAUTH_PROVIDER_IDS, isOAuthProviderId, type OAuthProviderId } from '@gatehouse/shared/constants';

// The wire contract's list is the one list: a provider added there must get a PROVIDERS entry (the Record type says so).
export const PROVIDER_IDS = OAUTH_PROVIDER_IDS;
export type ProviderId = OAuthProviderId;

export const isProviderId: (value: string) => value is ProviderId = isOAuthProviderId;

/** What the callback needs about the provider account (protocol-auth §3.6.2 step 3). */
export interface ProviderUserInfo {
  accountId: string;
  displayName: string | null;
  email: string | null;
  emailVerified: boolean;
  profileImageUrl: string | null;
}

/** Everything a mapper may look at: the JSON of each user-info request (by key), id_token claims, callback params. */
export interface UserInfoSources {
  responses: Record<string, unknown>;
  idTokenClaims?: Record<string, unknown>;
  callbackParams?: URLSearchParams;
}

export type TokenEndpointAuthMethod = 'client_secret_post' | 'client_secret_basic';

export interface ProviderDefinition {
  id: ProviderId;
  /** Expected `iss` of the provider's id_tokens; `{tenant}` is replaced for Microsoft. */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** Fetched with the access token (GET, Bearer), each JSON body handed to `mapUserInfo` under its key. */
  userInfoRequests: Record<string, string>;
  userInfoHeaders?: Record<string, string>;
  /** protocol-auth §3.6.1 "Provider base scopes", verbatim. */
  baseScopes: readonly string[];
  /** S256 PKCE on the inner flow; LinkedIn's web flow does not take it. */
  pkce: boolean;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  /** Extra authorization-request parameters (besides `access_type=offline`, which every request carries). */
  authorizationParams?: Record<string, string>;
  /** Only Apple's identity comes from the id_token; other providers' id_tokens are dropped unvalidated. */
  usesIdToken?: boolean;
  mapUserInfo(sources: UserInfoSources): ProviderUserInfo;
}

// ── small readers for untrusted JSON ────────────────────────────────────────────────────────────────────────────

type Json = Record<string, unknown>;

function obj(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

/** Non-empty string (numbers are stringified: GitHub/GitLab ids are numbers). */
function str(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function requireId(value: unknown, provider: ProviderId): string {
  const id = str(value);
  if (id === null) throw new Error(`${provider} user info has no account id`);
  return id;
}

/** Apple sends email_verified as the string "true"; OIDC says boolean. */
function truthy(value: unknown): boolean {
  return value === true || value === 'true';
}

/** Standard OIDC claims (sub, name, email, email_verified, picture): Google, LinkedIn, issuer overrides. */
export function mapOidcClaims(claims: unknown, provider: ProviderId): ProviderUserInfo {
  const c = obj(claims);
  return {
    accountId: requireId(c.sub, provider),
    displayName: str(c.name),
    email: str(c.email),
    emailVerified: truthy(c.email_verified),
    profileImageUrl: str(c.picture),
  };
}

// ── the table ───────────────────────────────────────────────────────────────────────────────────────────────────

const GRAPH_FACEBOOK = 'https://graph.facebook.com/v22.0';

export const PROVIDERS: Record<ProviderId, ProviderDefinition> = {
  google: {
    id: 'google',
    issuer: 'https://accounts.google.com',
    authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenEndpoint: 'https://oauth2.googleapis.com/token',
    userInfoRequests: { user: 'https://openidconnect.googleapis.com/v1/userinfo' },
    baseScopes: ['https://www.googleapis.com/auth/userinfo.email', 'https://www.googleapis.com/auth/userinfo.profile'],
    pkce: true,
    tokenEndpointAuthMethod: 'client_secret_post',
    mapUserInfo: ({ responses }) => mapOidcClaims(responses.user, 'google'),
  },

  github: {
    id: 'github',
    issuer: 'https://github.com',
    authorizationEndpoint: 'https://github.com/login/oauth/authorize',
    tokenEndpoint: 'https://github.com/login/oauth/access_token',
    userInfoRequests: { user: 'https://api.github.com/user', emails: 'https://api.github.com/user/emails' },
    userInfoHeaders: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
    baseScopes: ['user:email'],
    pkce: true,
    tokenEndpointAuthMethod: 'client_secret_post',
    mapUserInfo: ({ responses }) => {
      const user = obj(responses.user);
      // /user.email is only the *public* email; /user/emails says which address is primary and verified.
      const emails = Array.isArray(responses.emails) ? responses.emails.map(obj) : [];
      const primary = emails.find((e) => e.primary === true && str(e.email));
      return {
        accountId: requireId(user.id, 'github'),
        displayName: str(user.name) ?? str(user.login),
        email: primary ? str(primary.email) : str(user.email),
        emailVerified: primary ? primary.verified === true : false,
        profileImageUrl: str(user.avatar_url),
      };
    },
  },

  microsoft: {
    id: 'microsoft',
    issuer: 'https://login.microsoftonline.com/{tenant}/v2.0',
    authorizationEndpoint: 'https://login.microsoftonline.com/{tenant}/oauth2/v2.0/authorize',
    tokenEndpoint: 'https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token',
    // User.Read grants Graph /me; the OIDC userinfo endpoint would need the `email` scope to say anything useful.
    userInfoRequests: { user: 'https://graph.microsoft.com/v1.0/me' },
    baseScopes: ['User.Read', 'openid'],
    pkce: true,
    tokenEndpointAuthMethod: 'client_secret_post',
    mapUserInfo: ({ responses }) => {
      const me = obj(responses.user);
      return {
        accountId: requireId(me.id, 'microsoft'),
        displayName: str(me.displayName),
        email: str(me.mail) ?? str(me.userPrincipalName),
        // Entra lets tenant admins set `mail` to anything, so it is never proof of ownership.
        emailVerified: false,
        // The Graph photo needs the access token to download; there is no public URL.
        profileImageUrl: null,
      };
    },
  },

  spotify: {
    id: 'spotify',
    issuer: 'https://accounts.spotify.com',
    authorizationEndpoint: 'https://accounts.spotify.com/authorize',
    tokenEndpoint: 'https://accounts.spotify.com/api/token',
    userInfoRequests: { user: 'https://api.spotify.com/v1/me' },
    baseScopes: ['user-read-email', 'user-read-private'],
    pkce: true,
    tokenEndpointAuthMethod: 'client_secret_basic',
    mapUserInfo: ({ responses }) => {
      const me = obj(responses.user);
      const images = Array.isArray(me.images) ? me.images.map(obj) : [];
      return {
        accountId: requireId(me.id, 'spotify'),
        displayName: str(me.display_name),
        email: str(me.email),
        // Spotify does not verify email addresses.
        emailVerified: false,
        profileImageUrl: images.length > 0 ? str(images[0].url) : null,
      };
    },
  },

  facebook: {
    id: 'facebook',
    issuer: 'https://www.facebook.com',
    authorizationEndpoint: 'https://www.facebook.com/v22.0/dialog/oauth',
    tokenEndpoint: `${GRAPH_FACEBOOK}/oauth/access_token`,
    userInfoRequests: { user: `${GRAPH_FACEBOOK}/me?fields=id,name,email,picture.type(large)` },
    baseScopes: ['openid', 'public_profile', 'email'],
    pkce: true,
    tokenEndpointAuthMethod: 'client_secret_post',
    mapUserInfo: ({ responses }) => {
      const me = obj(responses.user);
      return {
        accountId: requireId(me.id, 'facebook'),
        displayName: str(me.name),
        email: str(me.email),
        // The Graph API gives no verification flag; treat the address as unverified.
        emailVerified: false,
        profileImageUrl: str(obj(obj(me.picture).data).url),
      };
    },
  },

  discord: {
    id: 'discord',
    issuer: 'https://discord.com',
    authorizationEndpoint: 'https://discord.com/oauth2/authorize',
    tokenEndpoint: 'https://discord.com/api/oauth2/token',
    userInfoRequests: { user: 'https://discord.com/api/v10/users/@me' },
    baseScopes: ['identify', 'email'],
    pkce: true,
    tokenEndpointAuthMethod: 'client_secret_post',
    mapUserInfo: ({ responses }) => {
      const me = obj(responses.user);
      const id = requireId(me.id, 'discord');
      const avatar = str(me.avatar);
      return {
        accountId: id,
        displayName: str(me.global_name) ?? str(me.username),
        email: str(me.email),
        emailVerified: me.verified === true,
        profileImageUrl: avatar ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.png` : null,
      };
    },
  },

  gitlab: {
    id: 'gitlab',
    issuer: 'https://gitlab.com',
    authorizationEndpoint: 'https://gitlab.com/oauth/authorize',
    tokenEndpoint: 'https://gitlab.com/oauth/token',
    // read_user (no `openid`) grants the REST user endpoint, not OIDC userinfo.
    userInfoRequests: { user: 'https://gitlab.com/api/v4/user' },
    baseScopes: ['read_user'],
    pkce: true,
    tokenEndpointAuthMethod: 'client_secret_post',
    mapUserInfo: ({ responses }) => {
      const me = obj(responses.user);
      return {
        accountId: requireId(me.id, 'gitlab'),
        displayName: str(me.name) ?? str(me.username),
        email: str(me.email),
        emailVerified: str(me.confirmed_at) !== null,
        profileImageUrl: str(me.avatar_url),
      };
    },
  },

  bitbucket: {
    id: 'bitbucket',
    issuer: 'https://bitbucket.org',
    authorizationEndpoint: 'https://bitbucket.org/site/oauth2/authorize',
    tokenEndpoint: 'https://bitbucket.org/site/oauth2/access_token',
    userInfoRequests: {
      user: 'https://api.bitbucket.org/2.0/user',
      emails: 'https://api.bitbucket.org/2.0/user/emails',
    },
    baseScopes: ['account', 'email'],
    pkce: true,
    tokenEndpointAuthMethod: 'client_secret_basic',
    mapUserInfo: ({ responses }) => {
      const user = obj(responses.user);
      const emails = Array.isArray(obj(responses.emails).values) ? (obj(responses.emails).values as unknown[]).map(obj) : [];
      const primary = emails.find((e) => e.is_primary === true && str(e.email));
      return {
        accountId: requireId(user.uuid, 'bitbucket'),
        displayName: str(user.display_name) ?? str(user.username),
        email: primary ? str(primary.email) : null,
        emailVerified: primary ? primary.is_confirmed === true : false,
        profileImageUrl: str(obj(obj(user.links).avatar).href),
      };
    },
  },

  linkedin: {
    id: 'linkedin',
    issuer: 'https://www.linkedin.com/oauth',
    authorizationEndpoint: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenEndpoint: 'https://www.linkedin.com/oauth/v2/accessToken',
    userInfoRequests: { user: 'https://api.linkedin.com/v2/userinfo' },
    baseScopes: ['openid', 'profile', 'email'],
    pkce: false,
    tokenEndpointAuthMethod: 'client_secret_post',
    mapUserInfo: ({ responses }) => mapOidcClaims(responses.user, 'linkedin'),
  },

  apple: {
    id: 'apple',
    issuer: 'https://appleid.apple.com',
    authorizationEndpoint: 'https://appleid.apple.com/auth/authorize',
    tokenEndpoint: 'https://appleid.apple.com/auth/token',
    // Apple has no user-info endpoint: identity is in the id_token, the name only in the first callback's `user`.
    userInfoRequests: {},
    baseScopes: ['name', 'email'],
    pkce: true,
    tokenEndpointAuthMethod: 'client_secret_post',
    // Apple requires form_post whenever name or email is requested.
    authorizationParams: { response_mode: 'form_post' },
    usesIdToken: true,
    mapUserInfo: ({ idTokenClaims, callbackParams }) => {
      const claims = obj(idTokenClaims);
      return {
        accountId: requireId(claims.sub, 'apple'),
        displayName: appleName(callbackParams?.get('user')),
        email: str(claims.email),
        emailVerified: truthy(claims.email_verified),
        profileImageUrl: null,
      };
    },
  },

  x: {
    id: 'x',
    issuer: 'https://x.com',
    authorizationEndpoint: 'https://x.com/i/oauth2/authorize',
    tokenEndpoint: 'https://api.x.com/2/oauth2/token',
    userInfoRequests: { user: 'https://api.x.com/2/users/me?user.fields=profile_image_url' },
    baseScopes: ['users.read', 'offline.access', 'tweet.read'],
    pkce: true,
    // X only accepts Basic credentials from confidential clients.
    tokenEndpointAuthMethod: 'client_secret_basic',
    mapUserInfo: ({ responses }) => {
      const data = obj(obj(responses.user).data);
      return {
        accountId: requireId(data.id, 'x'),
        displayName: str(data.name) ?? str(data.username),
        // X does not expose email without the separate users.email scope.
        email: null,
        emailVerified: false,
        profileImageUrl: str(data.profile_image_url),
      };
    },
  },
};

/** Apple's `user` form field (first sign-in only): `{"name":{"firstName":"…","lastName":"…"},"email":"…"}`. */
function appleName(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const name = obj(obj(JSON.parse(raw)).name);
    const full = [str(name.firstName), str(name.lastName)].filter((p) => p !== null).join(' ');
    return full === '' ? null : full;
  } catch {
    return null;
  }
}
