// Where a provider's endpoints are: the real ones from providers.ts, or, for development and tests, an OpenID
// Connect issuer standing in for it (GATEHOUSE_OAUTH_ISSUER_OVERRIDES). Also the operator's shared credentials.
import * as oauth from 'oauth4webapi';
import { PROVIDERS, PROVIDER_IDS, isProviderId, type ProviderDefinition, type ProviderId, type TokenEndpointAuthMethod } from './providers.ts';

type Env = Record<string, string | undefined>;

export const ISSUER_OVERRIDES_ENV = 'GATEHOUSE_OAUTH_ISSUER_OVERRIDES';
/** Credentials of the clients the development provider registers (dev-provider.ts). */
export const DEV_CLIENT_SECRET = 'dev-secret';
export function devClientId(providerId: ProviderId): string {
  return `gatehouse-dev-${providerId}`;
}

/** Asked of a stand-in issuer on top of the provider's own scopes, so its userinfo carries the standard claims. */
const OIDC_SCOPES = ['openid', 'email', 'profile'] as const;

export interface ResolvedProvider {
  id: ProviderId;
  definition: ProviderDefinition;
  /** The OpenID Connect issuer standing in for the provider, or null for the real provider. */
  issuerOverride: string | null;
  authorizationServer: oauth.AuthorizationServer;
  /** Plain-http endpoints are only ever allowed for an http override issuer (development and tests). */
  allowInsecureRequests: boolean;
  pkce: boolean;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  /** Scopes every authorization request asks for before any extra provider scopes. */
  requestScopes: readonly string[];
  /** Extra authorization-request parameters of the provider (e.g. Apple's response_mode=form_post). */
  authorizationParams: Readonly<Record<string, string>>;
}

export interface ResolveOptions {
  /** A string: use that issuer. null: the real provider. Omitted: whatever GATEHOUSE_OAUTH_ISSUER_OVERRIDES in `env` says. */
  issuerOverride?: string | null;
  /** Microsoft tenant for the endpoint URLs (default `common`). */
  microsoftTenantId?: string | null;
  env?: Env;
  /** Where discovered override issuers are kept (the service's: Services.oauthDiscovery). Omitted: discovered afresh. */
  discovery?: IssuerDiscovery;
}

export async function resolveProviderEndpoints(providerId: ProviderId, options: ResolveOptions = {}): Promise<ResolvedProvider> {
  const definition = PROVIDERS[providerId];
  if (!definition) throw new Error(`Unknown OAuth provider: ${String(providerId)}`);
  const override = options.issuerOverride === undefined ? issuerOverrideFor(providerId, options.env ?? {}) : options.issuerOverride;
  const common = {
    id: providerId,
    definition,
    pkce: definition.pkce,
    tokenEndpointAuthMethod: definition.tokenEndpointAuthMethod,
    authorizationParams: definition.authorizationParams ?? {},
  };
  if (override) {
    const authorizationServer = await (options.discovery ?? new IssuerDiscovery()).discover(override);
    return {
      ...common,
      issuerOverride: override,
      authorizationServer,
      allowInsecureRequests: new URL(override).protocol === 'http:',
      requestScopes: unique([...OIDC_SCOPES, ...definition.baseScopes]),
    };
  }
  const tenant = providerId === 'microsoft' ? microsoftTenant(options.microsoftTenantId) : '';
  const fill = (url: string) => url.replaceAll('{tenant}', tenant);
  return {
    ...common,
    issuerOverride: null,
    authorizationServer: {
      issuer: fill(definition.issuer),
      authorization_endpoint: fill(definition.authorizationEndpoint),
      token_endpoint: fill(definition.tokenEndpoint),
    },
    allowInsecureRequests: false,
    requestScopes: definition.baseScopes,
  };
}

function microsoftTenant(tenantId: string | null | undefined): string {
  const tenant = tenantId?.trim() || 'common';
  // A GUID, a domain, or common/organizations/consumers; anything else would rewrite the URL path.
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]*$/.test(tenant)) throw new Error('Invalid Microsoft tenant id');
  return tenant;
}

export function unique(values: readonly string[]): string[] {
  return [...new Set(values.filter((v) => v !== ''))];
}

// ── discovery of override issuers (cached briefly: every sign-in would otherwise fetch it) ─────────────────────

const DISCOVERY_TTL_MS = 5 * 60_000;

/** Discovered issuers, each kept for a few minutes (a failed discovery is not kept). */
export class IssuerDiscovery {
  private readonly cache = new Map<string, { at: number; server: Promise<oauth.AuthorizationServer> }>();

  discover(issuer: string): Promise<oauth.AuthorizationServer> {
    const cached = this.cache.get(issuer);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.server;
    const server = (async () => {
      const url = new URL(issuer);
      const options = { algorithm: 'oidc' as const, [oauth.allowInsecureRequests]: url.protocol === 'http:' };
      const response = await oauth.discoveryRequest(url, options);
      const as = await oauth.processDiscoveryResponse(url, response);
      for (const key of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint'] as const) {
        if (typeof as[key] !== 'string') throw new Error(`OpenID issuer ${issuer} has no ${key}`);
      }
      return as;
    })();
    this.cache.set(issuer, { at: Date.now(), server });
    server.catch(() => {
      if (this.cache.get(issuer)?.server === server) this.cache.delete(issuer);
    });
    return server;
  }
}

// ── environment ─────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * GATEHOUSE_OAUTH_ISSUER_OVERRIDES: JSON object from provider id (or "*" for every provider) to an OpenID
 * Connect issuer URL, e.g. `{"github":"http://localhost:4000"}`. A provider's own key wins over "*".
 * Malformed values throw, so a typo fails loudly instead of silently signing in with the real provider.
 */
export function issuerOverrides(env: Env): Partial<Record<ProviderId | '*', string>> {
  const raw = env[ISSUER_OVERRIDES_ENV]?.trim();
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${ISSUER_OVERRIDES_ENV}: not valid JSON, got "${raw}"`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`${ISSUER_OVERRIDES_ENV} must be a JSON object of provider id (or "*") to issuer URL`);
  }
  const result: Partial<Record<ProviderId | '*', string>> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (key !== '*' && !isProviderId(key)) {
      throw new Error(`${ISSUER_OVERRIDES_ENV}: unknown provider "${key}" (known: ${PROVIDER_IDS.join(', ')}, *)`);
    }
    if (typeof value !== 'string' || !/^https?:\/\/[^\s]+$/.test(value) || !URL.canParse(value)) {
      throw new Error(`${ISSUER_OVERRIDES_ENV}: "${key}" must be an http(s) issuer URL`);
    }
    result[key as ProviderId | '*'] = value;
  }
  return result;
}

export function issuerOverrideFor(providerId: ProviderId, env: Env): string | null {
  const overrides = issuerOverrides(env);
  return overrides[providerId] ?? overrides['*'] ?? null;
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * The operator's credentials for "shared" providers: GATEHOUSE_OAUTH_<ID>_CLIENT_ID / _CLIENT_SECRET (ID upper-cased,
 * e.g. GATEHOUSE_OAUTH_GITHUB_CLIENT_ID). Without them, a provider pointed at an override issuer uses the
 * development provider's client (`gatehouse-dev-<id>` / `dev-secret`), so every button works with no keys.
 */
export function sharedCredentials(providerId: ProviderId, env: Env): ClientCredentials | null {
  const prefix = `GATEHOUSE_OAUTH_${providerId.toUpperCase()}`;
  const clientId = env[`${prefix}_CLIENT_ID`]?.trim();
  const clientSecret = env[`${prefix}_CLIENT_SECRET`]?.trim();
  if (clientId && clientSecret) return { clientId, clientSecret };
  if (issuerOverrideFor(providerId, env)) return { clientId: devClientId(providerId), clientSecret: DEV_CLIENT_SECRET };
  return null;
}

/** The OAuth settings of the environment (config.ts): issuer overrides and the operator's shared credentials. */
export interface OAuthSettings {
  issuerOverrides: Partial<Record<ProviderId | '*', string>>;
  sharedCredentials: Partial<Record<ProviderId, ClientCredentials>>;
}

export function oauthSettings(env: Env): OAuthSettings {
  const shared: Partial<Record<ProviderId, ClientCredentials>> = {};
  for (const id of PROVIDER_IDS) {
    const c = sharedCredentials(id, env);
    if (c) shared[id] = c;
  }
  return { issuerOverrides: issuerOverrides(env), sharedCredentials: shared };
}
