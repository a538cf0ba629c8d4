// The OAuth apps screen's rules (the project as an OpenID provider, issue 27): the register / edit form's values,
// what it sends, and its checks before sending: the service's schema (name, logo URL, each redirect URI) and the
// settings that do not work together, which the service refuses with OAUTH_PROVIDER_CLIENT_INVALID
// (service/src/oauth-provider/clients.ts); also where the project's issuer and token endpoint are.
import {
  DEVICE_CODE_GRANT, OAUTH_PROVIDER_GRANT_TYPES, OAUTH_PROVIDER_SCOPES, OAUTH_PROVIDER_TOKEN_LIFETIMES, OAuthProviderClientCreate,
} from '@gatehouse/shared/schemas/oauth-provider';
import type {
  OAuthProviderClient, OAuthProviderClientActivity, OAuthProviderClientCreateOptions, OAuthProviderClientType, OAuthProviderClientUpdateOptions, OAuthProviderGrantType,
} from '@gatehouse/shared/client';
import type { MessageKey } from '../messages';
import { schemaProblems } from './schema-check';

export const GRANT_TYPES: readonly OAuthProviderGrantType[] = OAUTH_PROVIDER_GRANT_TYPES;
export const SCOPES: readonly string[] = OAUTH_PROVIDER_SCOPES;
/** The service's limit on redirect URIs per client. */
export const MAX_REDIRECT_URIS = 20;

/** The grant types' short names on the screen (the device grant's URN is long). */
export const GRANT_LABEL_KEYS = {
  authorization_code: 'oauthApps.grant.authorization_code',
  refresh_token: 'oauthApps.grant.refresh_token',
  client_credentials: 'oauthApps.grant.client_credentials',
  [DEVICE_CODE_GRANT]: 'oauthApps.grant.device_code',
} as const satisfies Record<OAuthProviderGrantType, string>;

export interface OAuthAppFormValues {
  displayName: string;
  logoUrl: string;
  clientType: OAuthProviderClientType;
  /** One URI a line, matched exactly as written. */
  redirectUris: string;
  grantTypes: string[];
  scopes: string[];
  /** Seconds; a number input's value ('' when emptied). */
  accessTokenLifetimeSeconds: number | string;
  idTokenLifetimeSeconds: number | string;
  refreshTokenLifetimeSeconds: number | string;
}

/** The form's lifetime fields, each with its bounds and default (the service's). */
export const LIFETIME_FIELDS = [
  { field: 'accessTokenLifetimeSeconds', bounds: OAUTH_PROVIDER_TOKEN_LIFETIMES.access_token_lifetime_seconds, label: 'oauthApps.accessTokenLifetime' },
  { field: 'idTokenLifetimeSeconds', bounds: OAUTH_PROVIDER_TOKEN_LIFETIMES.id_token_lifetime_seconds, label: 'oauthApps.idTokenLifetime' },
  { field: 'refreshTokenLifetimeSeconds', bounds: OAUTH_PROVIDER_TOKEN_LIFETIMES.refresh_token_lifetime_seconds, label: 'oauthApps.refreshTokenLifetime' },
] as const satisfies readonly { field: keyof OAuthAppFormValues; label: MessageKey; bounds: unknown }[];

export function oauthAppFormValues(c: OAuthProviderClient | null): OAuthAppFormValues {
  return {
    displayName: c?.displayName ?? '',
    logoUrl: c?.logoUrl ?? '',
    clientType: c?.clientType ?? 'confidential',
    redirectUris: (c?.redirectUris ?? []).join('\n'),
    // The service's defaults for a new client.
    grantTypes: [...(c?.grantTypes ?? ['authorization_code', 'refresh_token'])],
    scopes: [...(c?.scopes ?? SCOPES)],
    accessTokenLifetimeSeconds: c?.accessTokenLifetimeSeconds ?? OAUTH_PROVIDER_TOKEN_LIFETIMES.access_token_lifetime_seconds.default,
    idTokenLifetimeSeconds: c?.idTokenLifetimeSeconds ?? OAUTH_PROVIDER_TOKEN_LIFETIMES.id_token_lifetime_seconds.default,
    refreshTokenLifetimeSeconds: c?.refreshTokenLifetimeSeconds ?? OAUTH_PROVIDER_TOKEN_LIFETIMES.refresh_token_lifetime_seconds.default,
  };
}

/** A lifetime field's value as whole seconds, or null when it is not a whole number (empty, decimal, text). */
export function lifetimeSeconds(value: number | string): number | null {
  const n = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);
  return Number.isInteger(n) ? n : null;
}

/** The redirect URIs of the text: one a line, blank lines and the spaces around each dropped, duplicates once. */
export function redirectUriLines(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean))];
}

const isGrant = (s: string): s is OAuthProviderGrantType => (GRANT_TYPES as readonly string[]).includes(s);
/** The scopes a client may be allowed, in the order sent: the standard ones, then the project's own (its settings). */
const scopeChoices = (projectScopes: readonly string[]): string[] => [...SCOPES, ...projectScopes.filter((s) => !(SCOPES as readonly string[]).includes(s))];

/** `projectScopes`: the names of the project's own scopes (provider settings), which a client may also be allowed. */
export function oauthAppCreateOptions(v: OAuthAppFormValues, projectScopes: readonly string[] = []): OAuthProviderClientCreateOptions {
  return {
    displayName: v.displayName.trim(),
    clientType: v.clientType,
    redirectUris: redirectUriLines(v.redirectUris),
    // The protocol's order, whatever order the boxes were ticked in.
    grantTypes: GRANT_TYPES.filter((g) => v.grantTypes.includes(g)),
    scopes: scopeChoices(projectScopes).filter((s) => v.scopes.includes(s)),
    logoUrl: v.logoUrl.trim() || null,
    // Checked by validateOAuthAppForm before this is sent.
    accessTokenLifetimeSeconds: lifetimeSeconds(v.accessTokenLifetimeSeconds) ?? undefined,
    idTokenLifetimeSeconds: lifetimeSeconds(v.idTokenLifetimeSeconds) ?? undefined,
    refreshTokenLifetimeSeconds: lifetimeSeconds(v.refreshTokenLifetimeSeconds) ?? undefined,
  };
}

/** An edit sends every field but the type, which a client keeps (a secret cannot be added or taken away later). */
export function oauthAppUpdateOptions(v: OAuthAppFormValues, projectScopes: readonly string[] = []): OAuthProviderClientUpdateOptions {
  const { clientType: _kept, ...rest } = oauthAppCreateOptions(v, projectScopes);
  return rest;
}

export interface OAuthAppFormMessages {
  required: string;
  /** A schema problem of the name or logo URL is worded by schema-check; these are the form's own rules. */
  redirectUri(line: number): string;
  tooManyRedirectUris: string;
  grantRequired: string;
  scopeRequired: string;
  publicClientCredentials: string;
  refreshNeedsUserGrant: string;
  codeNeedsRedirectUri: string;
  lifetime(min: number, max: number): string;
}

export function validateOAuthAppForm(v: OAuthAppFormValues, m: OAuthAppFormMessages, projectScopes: readonly string[] = []): Record<string, string> {
  const o = oauthAppCreateOptions(v, projectScopes);
  const errors: Record<string, string> = {};
  const grants = new Set(o.grantTypes);
  const uris = o.redirectUris ?? [];
  if (!o.displayName) errors.displayName = m.required;
  const body = { display_name: o.displayName || 'x', client_type: o.clientType, logo_url: o.logoUrl, redirect_uris: uris };
  for (const p of schemaProblems(OAuthProviderClientCreate, body)) {
    if (p.path === '/display_name') errors.displayName ??= p.text;
    else if (p.path === '/logo_url') errors.logoUrl ??= p.text;
    else if (p.path === '/redirect_uris') errors.redirectUris ??= m.tooManyRedirectUris;
    else if (p.path.startsWith('/redirect_uris/')) errors.redirectUris ??= m.redirectUri(Number(p.path.split('/')[2]) + 1);
  }
  if (uris.length > MAX_REDIRECT_URIS) errors.redirectUris ??= m.tooManyRedirectUris;
  if (grants.size === 0 || !v.grantTypes.some(isGrant)) errors.grantTypes = m.grantRequired;
  else if (o.clientType === 'public' && grants.has('client_credentials')) errors.grantTypes = m.publicClientCredentials;
  else if (grants.has('refresh_token') && !grants.has('authorization_code') && !grants.has(DEVICE_CODE_GRANT)) errors.grantTypes = m.refreshNeedsUserGrant;
  if (grants.has('authorization_code') && uris.length === 0) errors.redirectUris ??= m.codeNeedsRedirectUri;
  if ((o.scopes ?? []).length === 0) errors.scopes = m.scopeRequired;
  for (const { field, bounds } of LIFETIME_FIELDS) {
    const seconds = lifetimeSeconds(v[field]);
    if (seconds === null || seconds < bounds.min || seconds > bounds.max) errors[field] = m.lifetime(bounds.min, bounds.max);
  }
  return errors;
}

/** The project's issuer (its discovery document is at `{issuer}/.well-known/openid-configuration`). */
export function issuerUrl(serviceUrl: string, projectId: string): string {
  return `${serviceUrl.replace(/\/+$/, '')}/oidc/${encodeURIComponent(projectId)}`;
}

export function tokenEndpoint(serviceUrl: string, projectId: string): string {
  return `${issuerUrl(serviceUrl, projectId)}/token`;
}

/** The activity line's parts, as catalogue keys with their values: consents, live tokens, and the last token (or none yet). */
export function activityParts(a: OAuthProviderClientActivity): { key: MessageKey; values?: Record<string, string | number>; at?: Date }[] {
  return [
    { key: a.consentsGranted === 1 ? 'oauthApps.consentsOne' : 'oauthApps.consents', values: { count: a.consentsGranted } },
    { key: a.liveTokens === 1 ? 'oauthApps.liveTokensOne' : 'oauthApps.liveTokens', values: { count: a.liveTokens } },
    a.lastTokenIssuedAt ? { key: 'oauthApps.lastToken', at: a.lastTokenIssuedAt } : { key: 'oauthApps.noTokenYet' },
  ];
}

/** A lifetime in the largest unit that says it exactly (days, hours, minutes, else seconds), as a catalogue key. */
export function lifetimePart(seconds: number): { key: MessageKey; values: { count: number } } {
  for (const [unit, size] of [['days', 86_400], ['hours', 3_600], ['minutes', 60]] as const) {
    if (seconds >= size && seconds % size === 0) return { key: `oauthApps.lifetime.${unit}`, values: { count: seconds / size } };
  }
  return { key: 'oauthApps.lifetime.seconds', values: { count: seconds } };
}
