// A local OpenID provider (oidc-provider with its development login forms) that stands in for every OAuth
// provider in development (`npm start` without keys) and in tests. Any login name signs in; the account's
// email is the login when it is an address, else `<login>@example.com` (verified), unless a profile was set with `setAccount`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import type { Configuration, default as ProviderClass } from 'oidc-provider';
import { DEV_CLIENT_SECRET, devClientId } from './endpoints.ts';
import { PROVIDERS, PROVIDER_IDS, type TokenEndpointAuthMethod } from './providers.ts';
import { DevProviderStore } from './dev-provider-store.ts';

export interface DevClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  /** Default client_secret_post. oidc-provider holds a client to the one method it registered. */
  token_endpoint_auth_method?: TokenEndpointAuthMethod;
}

/** Claims of a login; `null` leaves the claim out. The login itself is the account id (`sub`). */
export interface DevAccount {
  email?: string | null;
  emailVerified?: boolean;
  name?: string | null;
  picture?: string | null;
}

export interface DevOidcProviderOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Interface to listen on (default all); the service passes its own HOST. */
  host?: string;
  /** Public issuer URL; default `http://localhost:<port>`. */
  issuer?: string;
  clients?: DevClient[];
  /** Access-token lifetime in seconds (default 3600); tests shorten it to exercise refreshing. */
  accessTokenTtlSeconds?: number;
}

export interface DevOidcProvider {
  issuer: string;
  port: number;
  /** Registers (or replaces) a client; takes effect on the next request. */
  addClient(client: DevClient): void;
  /** Sets the claims a login will sign in with. */
  setAccount(login: string, account: DevAccount): void;
  close(): Promise<void>;
}

export async function startDevOidcProvider(options: DevOidcProviderOptions = {}): Promise<DevOidcProvider> {
  const Provider = await loadProvider();
  const store = new DevProviderStore();
  const accounts = new Map<string, DevAccount>();

  // Listen first: with port 0 the issuer URL (which includes the port) is only known afterwards.
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/avatar/')) return serveAvatar(req.url, res);
    if (!handler) {
      res.statusCode = 503;
      return res.end();
    }
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  // Bound to one address: reached at it (`localhost` may resolve to an interface the provider does not listen on).
  const bound = options.host && !['0.0.0.0', '::', 'localhost'].includes(options.host) ? options.host : undefined;
  const origin = bound ? `http://${bound.includes(':') ? `[${bound}]` : bound}:${port}` : `http://localhost:${port}`;
  const issuer = (options.issuer ?? origin).replace(/\/$/, '');

  const claimsOf = (login: string) => {
    const account = accounts.get(login) ?? {};
    const claims: Record<string, unknown> = { sub: login };
    // A login typed as an email address is that address (not `bob@example.com@example.com`).
    const email = account.email === undefined ? (login.includes('@') ? login : `${login}@example.com`) : account.email;
    if (email !== null) {
      claims.email = email;
      claims.email_verified = account.emailVerified ?? true;
    }
    const name = account.name === undefined ? login : account.name;
    if (name !== null) claims.name = name;
    const picture = account.picture === undefined ? `${issuer}/avatar/${encodeURIComponent(login)}.svg` : account.picture;
    if (picture !== null) claims.picture = picture;
    return claims;
  };

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const configuration: Configuration = {
    adapter: store.adapterFactory,
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => claimsOf(sub) as { sub: string } }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    scopes: ['openid', 'offline_access', 'email', 'profile'],
    features: { devInteractions: { enabled: true } },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
      id_token_signed_response_alg: 'RS256',
    },
    // LinkedIn's flow has no PKCE; when a challenge is sent, oidc-provider still checks it.
    pkce: { required: () => false },
    // Every sign-in gets a refresh token, as `access_type=offline` asks of real providers.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: options.accessTokenTtlSeconds ?? 3600,
      AuthorizationCode: 600,
      IdToken: 3600,
      RefreshToken: 30 * 86400,
      Interaction: 3600,
      Session: 86400,
      Grant: 30 * 86400,
    },
    cookies: { keys: [crypto.randomUUID()] },
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'dev', alg: 'RS256', use: 'sig' }] as never },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Error</title><h1>${escapeHtml(String(out.error))}</h1><p>${escapeHtml(String(out.error_description ?? ''))}</p>`;
    },
  };
  const provider = quietly(() => new Provider(issuer, configuration));
  handler = provider.callback();

  const addClient = (client: DevClient) => {
    store.clients.set(client.client_id, {
      client_id: client.client_id,
      client_secret: client.client_secret,
      redirect_uris: client.redirect_uris,
      token_endpoint_auth_method: client.token_endpoint_auth_method ?? 'client_secret_post',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
  };
  for (const client of options.clients ?? []) addClient(client);

  return {
    issuer,
    port,
    addClient,
    setAccount: (login, account) => void accounts.set(login, account),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}

/** One client per provider, as the development server registers them: `gatehouse-dev-<provider>` / `dev-secret`. */
export function devProviderClients(apiBase: string): DevClient[] {
  const base = apiBase.replace(/\/$/, '');
  return PROVIDER_IDS.map((id) => ({
    client_id: devClientId(id),
    client_secret: DEV_CLIENT_SECRET,
    redirect_uris: [`${base}/api/v1/auth/oauth/callback/${id}`],
    token_endpoint_auth_method: PROVIDERS[id].tokenEndpointAuthMethod,
  }));
}

// oidc-provider announces, on import and construction, that it is running under Bun, with a memory adapter and
// development login forms: all deliberate here. Only its own lines are dropped, and only while it loads.
// Its cookie signing (keygrip → tsscmp) also calls crypto.pseudoRandomBytes, which Bun reports as DEP0115 on the
// first sign-in; that one deprecation is dropped for the process.
let providerModule: Promise<typeof ProviderClass> | undefined;

/** oidc-provider, loaded once and quietly (also for the projects' own providers, oauth-provider/providers.ts). */
export function loadProvider(): Promise<typeof ProviderClass> {
  providerModule ??= (async () => {
    const emitWarning = process.emitWarning;
    process.emitWarning = function (this: unknown, warning: unknown, ...rest: unknown[]) {
      const code = typeof rest[0] === 'object' && rest[0] !== null ? (rest[0] as { code?: unknown }).code : rest[1];
      if (code === 'DEP0115') return;
      return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
    } as typeof process.emitWarning;
    const restore = muteProviderNotices();
    try {
      return (await import('oidc-provider')).default;
    } finally {
      restore();
    }
  })();
  return providerModule;
}

export function quietly<T>(fn: () => T): T {
  const restore = muteProviderNotices();
  try {
    return fn();
  } finally {
    restore();
  }
}

function muteProviderNotices(): () => void {
  const { warn, info } = console;
  const filter =
    (original: (...args: unknown[]) => void) =>
    (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].includes('oidc-provider ')) return;
      original.apply(console, args);
    };
  console.warn = filter(warn);
  console.info = filter(info);
  return () => {
    console.warn = warn;
    console.info = info;
  };
}

function serveAvatar(url: string, res: ServerResponse): void {
  let login: string;
  try {
    login = decodeURIComponent(url.slice('/avatar/'.length).replace(/\.svg(\?.*)?$/, ''));
  } catch {
    login = '?';
  }
  const initial = escapeHtml((login.trim()[0] ?? '?').toUpperCase());
  let hue = 0;
  for (const ch of login) hue = (hue * 31 + ch.charCodeAt(0)) % 360;
  res.setHeader('content-type', 'image/svg+xml');
  res.setHeader('cache-control', 'public, max-age=86400');
  res.end(
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
      `<rect width="96" height="96" fill="hsl(${hue},55%,45%)"/>` +
      `<text x="48" y="62" font-family="sans-serif" font-size="44" fill="#fff" text-anchor="middle">${initial}</text></svg>`,
  );
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
