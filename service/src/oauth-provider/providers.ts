// Each project's own OpenID Provider (issue 27), built with oidc-provider (OpenID Certified) on Gatehouse's database.
// One Provider per project, made on its first request and kept (least recently used out); its issuer is
// `{public URL}/oidc/{project id}`. Users, sessions and MFA stay Gatehouse's: every authorization request goes
// to the account kit's consent page (the `login` prompt is always asked), which completes it for the user signed in
// there (oauth-provider/interactions.ts).
import { createHash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Configuration, default as ProviderClass } from 'oidc-provider';
import { OAUTH_PROVIDER_SCOPES, OAUTH_PROVIDER_TOKEN_LIFETIMES } from '@gatehouse/shared/schemas/oauth-provider';
import { mappedClaims, type ClaimMapping, type ProjectScope } from '@gatehouse/shared/rules/oauth-provider-claims';
import type { Services } from '../services';
import * as users from '../repo/users';
import * as store from '../repo/oauth-provider';
import { adapterFor } from './adapter';
import { settingsRow } from './settings';
import { ACCESS_TOKEN_LIFETIME, ID_TOKEN_LIFETIME, LIFETIME_METADATA, REFRESH_TOKEN_LIFETIME } from './client-metadata';
import { successSource, userCodeConfirmSource, userCodeInputSource } from './device-pages';
import { loadProvider as loadOidcProvider, quietly } from '../oauth/dev-provider';

export type Provider = ProviderClass;

const KEPT_PROVIDERS = 200;
export const CONSENT_PAGE = 'oauth-consent';
/** Under the issuer: the protected-resource metadata (RFC 9728) of a declared resource, `?resource={uri}`. */
export const PROTECTED_RESOURCE_PATH = 'protected-resource';

/** The issuer of a project's provider. */
export function issuerOf(publicUrl: string, projectId: string): string {
  return `${publicUrl.replace(/\/$/, '')}/oidc/${encodeURIComponent(projectId)}`;
}

const registries = new WeakMap<Services, LRUCache<string, Promise<Provider>>>();

/** The project's provider, or null when there is no such project. */
export async function projectProvider(services: Services, projectId: string): Promise<Provider | null> {
  if (!(await services.projects.get(projectId))) return null;
  let registry = registries.get(services);
  if (!registry) registries.set(services, (registry = new LRUCache({ max: KEPT_PROVIDERS })));
  // Keyed by issuer too: with PORT=0 the public URL is known only once the service listens.
  const issuer = issuerOf(services.config.publicUrl, projectId);
  // And by the settings' time of change: a change makes a new provider on this instance at its next request, on the
  // others once their kept row is older than SETTINGS_KEPT_MS (settings.ts).
  const settings = await settingsRow(services, projectId);
  const key = `${projectId}\n${issuer}\n${settings?.updatedAt.getTime() ?? 0}`;
  let provider = registry.get(key);
  if (!provider) {
    provider = buildProvider(services, projectId, issuer, settings);
    registry.set(key, provider);
    provider.catch(() => registry.delete(key));
  }
  return provider;
}

async function buildProvider(services: Services, projectId: string, issuer: string, settings: store.ProviderSettingsRow | null): Promise<Provider> {
  const Provider = await loadOidcProvider();
  const keys = await store.ensureKeys(services.db, projectId, freshKeys);
  // Already loaded (quietly) by loadOidcProvider: this import only names its policy helpers.
  const { interactionPolicy, errors } = await import('oidc-provider');
  const resources = new Set(settings?.resources ?? []);
  const projectScopes = settings?.scopes ?? [];
  const claimMappings = settings?.claims ?? [];
  const policy = interactionPolicy.base();
  // Gatehouse's session decides who signs in, at every request: the provider's own session never stands in for it.
  policy.get('login')!.checks.add(new interactionPolicy.Check('gatehouse_session', 'The Gatehouse session decides who signs in', (ctx) =>
    (ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT)));

  const configuration: Configuration = {
    adapter: adapterFor(services.db, projectId, {
      refuse: (reason) => new errors.InvalidClientMetadata(reason),
    }),
    findAccount: async (_ctx, sub) => {
      const user = await users.load(services.db, projectId, sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        // Every claim the user has; the provider keeps those the granted scopes release (`claims` below).
        claims: () => ({
          ...mappedClaims(user, claimMappings, () => true),
          sub,
          ...(user.primary_email ? { email: user.primary_email, email_verified: user.primary_email_verified === true } : {}),
          ...(user.display_name ? { name: user.display_name } : {}),
          ...(user.profile_image_url ? { picture: user.profile_image_url } : {}),
        }),
      };
    },
    claims: releasedClaims(projectScopes, claimMappings),
    scopes: [...OAUTH_PROVIDER_SCOPES, ...projectScopes.map((s) => s.name)],
    // The claims the granted scopes release are in the ID token too, not only in userinfo (OpenID Connect Core §5.4
    // allows either): relying parties commonly read email and custom claims from the ID token alone.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    // No method that would use the stored secret as a key (client_secret_jwt): it is kept only as a hash.
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      // RFC 7662 for confidential clients (resource servers among them): a public client learns nothing ({active: false}).
      introspection: { enabled: true, allowedPolicy: async (_ctx, client) => client.clientAuthMethod !== 'none' },
      rpInitiatedLogout: { enabled: true },
      clientCredentials: { enabled: true },
      userinfo: { enabled: true },
      // RFC 8628: the person types the code at `{issuer}/device` (the provider's own form), then signs in and
      // consents through the account kit like any authorization request.
      deviceFlow: { enabled: true, userCodeInputSource, userCodeConfirmSource: userCodeConfirmSource as never, successSource },
      // RFC 7591, only when the project turned it on (oauth-provider/settings.ts): open registration, as MCP clients
      // expect. The client is stored like an admin-made one (adapter.ts); PKCE stays required for it.
      registration: {
        enabled: settings?.dynamicClientRegistration === true, initialAccessToken: false, issueRegistrationAccessToken: false,
        idFactory: () => `ghc_${randomBytes(16).toString('base64url')}`,
        secretFactory: () => `ghs_${randomBytes(32).toString('base64url')}`,
      },
      // RFC 8707: a token asked for a declared resource is a JWT (ES256, the issuer's JWKS) with that resource as its
      // audience, so the resource server checks it without calling back; any other resource is invalid_target.
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: (_ctx, resource, client) => {
          if (!resources.has(resource)) throw new errors.InvalidTarget('resource indicator is not a protected resource of this project');
          return { scope: '', audience: resource, accessTokenFormat: 'jwt', accessTokenTTL: lifetimeOf(client, ACCESS_TOKEN_LIFETIME), jwt: { sign: { alg: 'ES256' } } };
        },
        useGrantedResource: () => true,
      },
    },
    // Every refresh answers a new refresh token; a rotated one used again revokes its whole grant (oidc-provider).
    rotateRefreshToken: true,
    interactions: {
      policy,
      url: async (_ctx, interaction) => `${await consentPageBase(services, projectId)}?interaction=${encodeURIComponent(interaction.uid)}`,
    },
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => originOf(uri) === origin) ?? false,
    cookies: { keys: [cookieKey(services.secret, projectId)] },
    jwks: { keys: keys.map((k) => ({ ...k.privateJwk, kid: k.kid, alg: k.alg, use: 'sig' })) as never },
    enabledJWA: { idTokenSigningAlgValues: ['ES256', 'RS256'], userinfoSigningAlgValues: ['ES256', 'RS256'] },
    clientDefaults: { id_token_signed_response_alg: 'ES256', grant_types: ['authorization_code'], response_types: ['code'] },
    // Each client's own token lifetimes (client-metadata.ts carries them from its row); a rotated refresh token gets
    // the client's whole refresh lifetime again, up to the grant's year.
    extraClientMetadata: {
      properties: LIFETIME_METADATA,
      // A client registering itself (RFC 7591) does not choose them: what it sends is dropped, it gets the defaults.
      validator: (ctx, key, _value, metadata) => {
        if (ctx?.oidc?.route === 'registration') delete (metadata as Record<string, unknown>)[key];
      },
    },
    ttl: {
      AccessToken: (_ctx, _token, client) => lifetimeOf(client, ACCESS_TOKEN_LIFETIME),
      ClientCredentials: (_ctx, _token, client) => lifetimeOf(client, ACCESS_TOKEN_LIFETIME),
      IdToken: (_ctx, _token, client) => lifetimeOf(client, ID_TOKEN_LIFETIME),
      RefreshToken: (_ctx, _token, client) => lifetimeOf(client, REFRESH_TOKEN_LIFETIME),
      AuthorizationCode: 60, Interaction: 3600, Session: 3600, Grant: 365 * 86400, DeviceCode: 600,
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Error</title><h1>${escapeHtml(String(out.error))}</h1><p>${escapeHtml(String(out.error_description ?? ''))}</p>`;
    },
  };
  const provider = quietly(() => new Provider(issuer, configuration));
  // Behind the service's own HTTP front (http/oidc-mount.ts), which says the public origin in X-Forwarded-*.
  provider.proxy = true;
  // A client's stored secret is the sha256 of the one it was given (client-metadata.ts).
  provider.Client.prototype.compareClientSecret = function (this: { clientSecret?: string }, actual: string) {
    if (!this.clientSecret) return false;
    const given = Buffer.from(createHash('sha256').update(actual).digest('hex'));
    const stored = Buffer.from(this.clientSecret);
    return given.length === stored.length && timingSafeEqual(given, stored);
  };
  return provider;
}

/** A client's token lifetime; the default for one whose metadata lacks it (never: every row has them). */
function lifetimeOf(client: { [key: string]: unknown } | undefined, name: keyof typeof OAUTH_PROVIDER_TOKEN_LIFETIMES): number {
  const value = client?.[name];
  return typeof value === 'number' ? value : OAUTH_PROVIDER_TOKEN_LIFETIMES[name].default;
}

/** Which scope releases which claims: the standard ones, then each mapping under the scope it names. */
function releasedClaims(projectScopes: readonly ProjectScope[], mappings: readonly ClaimMapping[]): Record<string, string[]> {
  const released: Record<string, string[]> = { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] };
  for (const scope of projectScopes) released[scope.name] = [];
  for (const m of mappings) (released[m.scope] ??= []).push(m.claim);
  return released;
}

/** Where the consent page is: the project's first trusted domain's handler, else the service's own account kit. */
async function consentPageBase(services: Services, projectId: string): Promise<string> {
  const project = await services.projects.get(projectId);
  const domain = project?.config.domains?.[0];
  if (domain) return new URL(`/${domain.handler_path}/${CONSENT_PAGE}`.replace(/\/+/g, '/'), domain.domain).href;
  return `${services.config.publicUrl.replace(/\/$/, '')}/handler/${CONSENT_PAGE}`;
}

async function freshKeys(): Promise<store.ProviderKey[]> {
  return Promise.all((['ES256', 'RS256'] as const).map(async (alg) => {
    const { privateKey } = await generateKeyPair(alg, { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const kid = createHash('sha256').update(JSON.stringify([privateJwk.kty, privateJwk.x ?? privateJwk.n, alg])).digest('base64url').slice(0, 16);
    return { kid, alg, privateJwk: privateJwk as Record<string, unknown> };
  }));
}

/** The provider's cookie signing key: derived from the server secret, so every instance agrees without storing it. */
function cookieKey(secret: string, projectId: string): string {
  return Buffer.from(hkdfSync('sha256', secret, 'gatehouse oidc cookies', projectId, 32)).toString('base64url');
}

function originOf(uri: string): string | null {
  try { return new URL(uri).origin; } catch { return null; }
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

