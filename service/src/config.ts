// Everything the service reads from its environment, parsed once.
import { resolve } from 'node:path';
import type { OutboundPolicy } from './net/outbound-targets';
import proxyaddr from 'proxy-addr';
import { parseRules, type Rule, type RuleName } from './auth/rate-limits';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_METADATA_LIMITS, type MetadataLimits } from './http/limits';
import { oauthSettings, type OAuthSettings } from './oauth/endpoints';
import { logSettings, type LogSettings } from './observability/logger';
import { metricsPort, metricsToken } from './observability/metrics';
import { tracingSettings, type TracingSettings } from './observability/tracing';
import { webhookOptionsFromEnv, type WebhookWorkerOptions } from './webhooks/worker';
import { housekeepingIntervalMs } from './housekeeping';
import { withSecretFiles } from './secret-files';

export interface Config {
  port: number;
  /** Interface to listen on (default all interfaces; `127.0.0.1` keeps the service local). */
  hostname: string;
  isProduction: boolean;
  databaseUrl?: string;
  dataDir: string;
  /** Public origin of the API, used in links the service builds (OAuth callback URLs). */
  publicUrl: string;
  /** Whether GATEHOUSE_PUBLIC_URL set `publicUrl` (otherwise it follows the port, known only once listening when PORT=0). */
  publicUrlSet: boolean;
  /** Access-token lifetime in seconds (default 10 minutes; tests shorten it). */
  accessTokenLifetimeSeconds: number;
  /** Secret from which token-signing keys and encryption keys are derived; generated and stored if unset (not in production). */
  serverSecret?: string;
  /**
   * Secrets used before `serverSecret` (GATEHOUSE_SERVER_SECRET_PREVIOUS, comma-separated), during a rotation: what
   * they signed still verifies and what they sealed still opens, while everything new uses `serverSecret` and a
   * background pass re-seals what is stored (security/reseal.ts).
   */
  serverSecretPrevious: string[];
  /**
   * Days between automatic rotations of the access-token signing key (GATEHOUSE_SIGNING_KEY_ROTATION_DAYS, default
   * 90; 0: only `keys rotate` or the internal API rotates). The next key is published a whole period before it signs,
   * so a verifier that reads the JWKS at least that often never meets an unknown key.
   */
  signingKeyRotationDays: number;
  smtpUrl?: string;
  smtpSender: string;
  /** Concurrent password hashes; each argon2id hash holds 19 MiB while it runs. */
  passwordHashConcurrency: number;
  /** Run the local OpenID provider for OAuth providers without credentials (development only). */
  devOidc: boolean;
  /**
   * The demo project (demo-project.ts): created at start, the app at `/` signs in there and every owner administers
   * it (development only; GATEHOUSE_DEMO_PROJECT=false leaves it out). Never in production.
   */
  demoProject: boolean;
  /** Logging (GATEHOUSE_LOG_LEVEL, GATEHOUSE_LOG_FORMAT, GATEHOUSE_LOG_REQUESTS; observability/logger.ts). */
  log: LogSettings;
  /**
   * The Prometheus listener: its port (GATEHOUSE_METRICS_PORT; unset: off), interface (GATEHOUSE_METRICS_HOST,
   * default 127.0.0.1, whatever HOST is) and the bearer token scrapes must present (GATEHOUSE_METRICS_TOKEN; unset: none).
   */
  metrics: { port?: number; hostname: string; token?: string };
  /** OpenTelemetry traces (the standard OTEL_* variables; off without an OTLP endpoint; observability/tracing.ts). */
  tracing: TracingSettings;
  /** OAuth issuer overrides and the operator's shared provider credentials (GATEHOUSE_OAUTH_*; oauth/endpoints.ts). */
  oauth: OAuthSettings;
  /** Webhook worker timing (GATEHOUSE_WEBHOOK_POLL_MS, _RETRY_BASE_MS, _RETRY_CAP_MS, _MAX_ATTEMPTS). */
  webhooks: Pick<WebhookWorkerOptions, 'pollMs' | 'backoffBaseMs' | 'backoffCapMs' | 'maxAttempts'>;
  /** Between housekeeping runs (GATEHOUSE_HOUSEKEEPING_INTERVAL_MS); unset: the worker's default. */
  housekeepingIntervalMs?: number;
  /** Rate-limit overrides, e.g. `sign_in_ip=50/600,code_send_email=10/600`, or `off` (see auth/rate-limits.ts). */
  rateLimits?: string;
  /** The rules in force (the defaults with `rateLimits` applied); null: rate limiting is off. */
  rateLimitRules: Record<RuleName, Rule> | null;
  /**
   * Which proxies' `x-forwarded-for` entries to believe (http/client-ip.ts): `false` none (the socket address is the
   * client), a number of hops (`true` = 1), or the addresses/subnets of the trusted proxies.
   */
  trustProxy: false | number | string[];
  /** How long an OAuth sign-in may take between /authorize and the provider's callback (default 10 minutes). */
  oauthFlowLifetimeSeconds: number;
  /**
   * DNS servers for domain verification (GATEHOUSE_DNS_SERVERS, comma-separated `host` or `host:port`); empty: the
   * system's. Tests point it at a DNS server of their own on loopback.
   */
  dnsServers: string[];
  /** How often a verified team domain's TXT record is checked again (GATEHOUSE_DOMAIN_RECHECK_HOURS, default 24). */
  domainRecheckHours: number;
  /** Lifetime of every emailed code (sign-in, reset, verification); unset: each flow's own (auth/flow-emails.ts). */
  emailCodeLifetimeSeconds?: number;
  /**
   * Whether webhooks and project SMTP servers may be on private or internal networks (net/outbound-targets.ts).
   * GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS; default: allowed in development, refused in production.
   */
  outbound: OutboundPolicy;
  /**
   * How long after signing in a session may make sensitive changes with client access (sign-in email, MFA off,
   * first password, account deletion); GATEHOUSE_RECENT_SIGN_IN_SECONDS, default 15 minutes.
   */
  recentSignInSeconds: number;
  /** Largest request body (GATEHOUSE_MAX_BODY_BYTES); larger ones answer 413 REQUEST_BODY_TOO_LARGE. */
  maxBodyBytes: number;
  /** Largest value of each metadata tier as UTF-8 JSON (GATEHOUSE_MAX_CLIENT_METADATA_BYTES, ...); larger: SCHEMA_ERROR. */
  metadataLimits: MetadataLimits;
  /** On SIGTERM/SIGINT, how long requests in progress may take to finish (GATEHOUSE_SHUTDOWN_DEADLINE_SECONDS). */
  shutdownDeadlineSeconds: number;
  /** PostgreSQL connect timeout (GATEHOUSE_DB_CONNECT_TIMEOUT_SECONDS) and statement timeout (GATEHOUSE_DB_STATEMENT_TIMEOUT_MS). */
  dbConnectTimeoutSeconds: number;
  dbStatementTimeoutMs: number;
  /** Email outbox retries (GATEHOUSE_EMAIL_RETRY_MAX_AGE_SECONDS, _RETRY_BASE_MS, _RETRY_CAP_MS, GATEHOUSE_EMAIL_POLL_MS). */
  emailRetry: { maxAgeMs: number; backoffBaseMs: number; backoffCapMs: number; pollMs: number };
  /** May anyone sign up anonymously to the internal project (GATEHOUSE_INTERNAL_ANONYMOUS_SIGN_UP, default false)? */
  internalAnonymousSignUp: boolean;
  /** Who may create projects with client access (GATEHOUSE_PROJECT_CREATION, GATEHOUSE_PROJECT_CREATORS; projects/creation-policy.ts). */
  projectCreation: ProjectCreationPolicy;
  /** Admin access tokens of owners without TOTP or a passkey are refused (GATEHOUSE_OWNER_MFA_REQUIRED, default: production). */
  ownerMfaRequired: boolean;
}

/** A true/false setting from the environment (undefined when unset); anything else stops the start. */
function flag(env: Record<string, string | undefined>, name: string): boolean | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new Error(`${name}: expected true or false, got "${raw}"`);
}

/** A positive whole number of seconds from the environment (undefined when unset); anything else stops the start. */
function seconds(env: Record<string, string | undefined>, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}: expected a whole number of seconds ≥ 1, got "${raw}"`);
  return n;
}

/** A whole number in [min, max] from the environment (undefined when unset); anything else stops the start. */
function integer(env: Record<string, string | undefined>, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new Error(`${name}: expected a whole number ${range}, got "${raw}"`);
  }
  return n;
}

/** A URL with one of `protocols` (undefined when unset); anything else stops the start. Messages hide the password. */
function url(env: Record<string, string | undefined>, name: string, protocols: string[], example: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL | undefined;
  try { parsed = new URL(raw); } catch { /* reported below */ }
  if (!parsed || !protocols.includes(parsed.protocol) || !parsed.hostname) {
    throw new Error(`${name}: expected a URL like ${example}, got "${redactUrl(raw)}"`);
  }
  return raw;
}

/** A URL without its password, for messages. */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = '***';
    return u.toString();
  } catch { return raw.replace(/:[^:@/]*@/, ':***@'); }
}

/** GATEHOUSE_TRUST_PROXY: true/false, a number of proxy hops, or a comma-separated list of proxy addresses/subnets. */
function trustProxy(env: Record<string, string | undefined>): Config['trustProxy'] {
  const name = 'GATEHOUSE_TRUST_PROXY';
  const raw = env[name]?.trim();
  if (!raw || raw === 'false') return false;
  if (raw === 'true') return 1;
  if (/^\d+$/.test(raw)) return integer(env, name, 0, 100) || false;
  const list = raw.split(',').map((a) => a.trim()).filter(Boolean);
  try {
    if (list.length === 0) throw new Error('empty');
    proxyaddr.compile(list);
  } catch {
    throw new Error(`${name}: expected true, false, a number of proxy hops or a list of proxy addresses/subnets (e.g. "loopback, 10.0.0.0/8"), got "${raw}"`);
  }
  return list;
}

/** Bytes a GATEHOUSE_SERVER_SECRET must carry in production, decoded from hex or base64/base64url. */
export const SERVER_SECRET_MIN_BYTES = 32;

/**
 * Why this configuration must not start (null: it may). Every signing and encryption key derives from
 * GATEHOUSE_SERVER_SECRET. Outside production it may be unset: one is generated and stored in the database, which
 * is convenient and only as safe as the database. In production it is required and must be strong: at least 32
 * bytes once decoded from hex or base64/base64url (e.g. `openssl rand -base64 32`), and not a repetition (at least
 * 10 different characters). Checked at start-up (main.ts), not in loadConfig, so settings can be read without it.
 */
export function serverSecretProblem(config: Pick<Config, 'isProduction' | 'serverSecret'>): string | null {
  if (!config.isProduction) return null;
  const value = config.serverSecret;
  const how = `set it to at least ${SERVER_SECRET_MIN_BYTES} random bytes in hex or base64, e.g. the output of \`openssl rand -base64 32\``;
  if (!value) return `GATEHOUSE_SERVER_SECRET is required in production (NODE_ENV=production): ${how}`;
  const bytes = /^(?:[0-9a-fA-F]{2})+$/.test(value) ? value.length / 2
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64').length : 0;
  const repetition = new Set(value).size < 10;
  if (bytes < SERVER_SECRET_MIN_BYTES || repetition) {
    return `GATEHOUSE_SERVER_SECRET is too weak for production (${repetition ? 'a repetition' : `${bytes} bytes decoded`}): ${how}`;
  }
  return null;
}

/**
 * Why the shared email config's server may not be used in production (null: it may). Mail carries sign-in codes and
 * reset links, so it must never travel in clear (ASVS 2.7.4): SMTP_URL must be `smtps://` (implicit TLS) or say
 * `?requireTLS=true` (STARTTLS required), and must not say `ignoreTLS=true`. No SMTP_URL: nothing is sent, nothing to
 * check (background.ts warns). Checked at start-up (main.ts), like the server secret.
 */
export function sharedSmtpTlsProblem(config: Pick<Config, 'isProduction' | 'smtpUrl'>): string | null {
  if (!config.isProduction || !config.smtpUrl) return null;
  const url = new URL(config.smtpUrl);
  const how = 'use smtps:// (implicit TLS) or add ?requireTLS=true (STARTTLS required), e.g. smtp://user:password@mail.example.com:587?requireTLS=true';
  if (url.searchParams.get('ignoreTLS') === 'true') return `SMTP_URL must not set ignoreTLS=true in production (NODE_ENV=production): mail with sign-in codes would travel in clear; ${how}`;
  if (url.protocol === 'smtps:' || url.searchParams.get('requireTLS') === 'true') return null;
  return `SMTP_URL must require TLS in production (NODE_ENV=production): mail with sign-in codes would travel in clear; ${how}`;
}

/**
 * GATEHOUSE_PROJECT_CREATION: `open` (any signed-up internal user), `invited` (only the addresses listed in
 * GATEHOUSE_PROJECT_CREATORS, matched against the user's verified primary email) or `none` (only the operator, with
 * the internal project's secret server or super secret admin key). Default: `open` outside production, `none` in it.
 */
function projectCreation(env: Record<string, string | undefined>, isProduction: boolean): ProjectCreationPolicy {
  const mode = env.GATEHOUSE_PROJECT_CREATION || (isProduction ? 'none' : 'open');
  if (mode !== 'open' && mode !== 'invited' && mode !== 'none') {
    throw new Error(`GATEHOUSE_PROJECT_CREATION: expected open, invited or none, got "${mode}"`);
  }
  const raw = env.GATEHOUSE_PROJECT_CREATORS?.trim();
  const emails = (raw ?? '').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean);
  for (const e of emails) if (!/^[^\s@]+@[^\s@]+$/.test(e)) throw new Error(`GATEHOUSE_PROJECT_CREATORS: expected a comma-separated list of email addresses, got "${e}"`);
  if (mode === 'invited' && emails.length === 0) throw new Error('GATEHOUSE_PROJECT_CREATORS: expected at least one email address when GATEHOUSE_PROJECT_CREATION is invited');
  if (mode !== 'invited' && raw) throw new Error(`GATEHOUSE_PROJECT_CREATORS: only used when GATEHOUSE_PROJECT_CREATION is invited (it is ${mode})`);
  return { mode, emails };
}

export interface ProjectCreationPolicy { mode: 'open' | 'invited' | 'none'; emails: string[] }

/** GATEHOUSE_SERVER_SECRET_PREVIOUS: one or more earlier secrets, comma-separated; only beside a current secret. */
function previousSecrets(env: Record<string, string | undefined>): string[] {
  const list = (env.GATEHOUSE_SERVER_SECRET_PREVIOUS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (list.length > 0 && !env.GATEHOUSE_SERVER_SECRET) {
    throw new Error('GATEHOUSE_SERVER_SECRET_PREVIOUS: set GATEHOUSE_SERVER_SECRET too (the new secret); the previous ones only open and verify what they made');
  }
  return list.filter((s) => s !== env.GATEHOUSE_SERVER_SECRET);
}

export function loadConfig(given: Record<string, string | undefined> = process.env): Config {
  // Secrets given as files (NAME_FILE, secret-files.ts) are read here, so every setting below sees their values.
  const env = withSecretFiles(given);
  const isProduction = env.NODE_ENV === 'production';
  const port = integer(env, 'PORT', 0, 65535) ?? 8102;
  const cores = navigator.hardwareConcurrency ?? 2;
  return {
    port,
    hostname: env.HOST || '0.0.0.0',
    isProduction,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database'),
    dataDir: resolve(env.GATEHOUSE_DATA_DIR ?? './data'),
    publicUrl: (env.GATEHOUSE_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    publicUrlSet: env.GATEHOUSE_PUBLIC_URL !== undefined,
    accessTokenLifetimeSeconds: seconds(env, 'GATEHOUSE_ACCESS_TOKEN_LIFETIME_SECONDS') ?? 600,
    serverSecret: env.GATEHOUSE_SERVER_SECRET || undefined,
    serverSecretPrevious: previousSecrets(env),
    signingKeyRotationDays: integer(env, 'GATEHOUSE_SIGNING_KEY_ROTATION_DAYS', 0, 3650) ?? 90,
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:'], 'smtp://user:password@mail.example.com:587'),
    smtpSender: env.SMTP_SENDER ?? 'noreply@gatehouse.local',
    // Twice Bun's hashing threads (one per core): each thread has the next hash queued beside the one it runs, so it
    // starts it at once instead of waiting for the JS thread to hand it over (under load the JS thread is busy or
    // not scheduled, and the thread sat idle; issue 16 §3). Memory stays one 19 MiB argon2id block per thread: a
    // queued hash holds none until a thread runs it.
    passwordHashConcurrency: integer(env, 'GATEHOUSE_PASSWORD_HASH_CONCURRENCY', 1, 1024) ?? 2 * Math.max(2, cores),
    devOidc: !isProduction && env.GATEHOUSE_DEV_OIDC !== 'false',
    demoProject: !isProduction && env.GATEHOUSE_DEMO_PROJECT !== 'false',
    log: logSettings(env),
    metrics: { port: metricsPort(env), hostname: env.GATEHOUSE_METRICS_HOST || '127.0.0.1', token: metricsToken(env) },
    tracing: tracingSettings(env),
    oauth: oauthSettings(env),
    webhooks: webhookOptionsFromEnv(env),
    housekeepingIntervalMs: housekeepingIntervalMs(env),
    rateLimits: env.GATEHOUSE_RATE_LIMITS || undefined,
    rateLimitRules: parseRules(env.GATEHOUSE_RATE_LIMITS || undefined),
    trustProxy: trustProxy(env),
    oauthFlowLifetimeSeconds: seconds(env, 'GATEHOUSE_OAUTH_FLOW_LIFETIME_SECONDS') ?? 600,
    dnsServers: (env.GATEHOUSE_DNS_SERVERS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    domainRecheckHours: integer(env, 'GATEHOUSE_DOMAIN_RECHECK_HOURS', 1, 24 * 365) ?? 24,
    emailCodeLifetimeSeconds: seconds(env, 'GATEHOUSE_EMAIL_CODE_LIFETIME_SECONDS'),
    outbound: { allowPrivateNetworks: flag(env, 'GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS') ?? !isProduction },
    recentSignInSeconds: seconds(env, 'GATEHOUSE_RECENT_SIGN_IN_SECONDS') ?? 900,
    maxBodyBytes: integer(env, 'GATEHOUSE_MAX_BODY_BYTES', 1024) ?? DEFAULT_MAX_BODY_BYTES,
    metadataLimits: {
      client_metadata: integer(env, 'GATEHOUSE_MAX_CLIENT_METADATA_BYTES', 2) ?? DEFAULT_METADATA_LIMITS.client_metadata,
      client_read_only_metadata: integer(env, 'GATEHOUSE_MAX_CLIENT_READ_ONLY_METADATA_BYTES', 2) ?? DEFAULT_METADATA_LIMITS.client_read_only_metadata,
      server_metadata: integer(env, 'GATEHOUSE_MAX_SERVER_METADATA_BYTES', 2) ?? DEFAULT_METADATA_LIMITS.server_metadata,
    },
    shutdownDeadlineSeconds: integer(env, 'GATEHOUSE_SHUTDOWN_DEADLINE_SECONDS', 0, 3600) ?? 10,
    dbConnectTimeoutSeconds: integer(env, 'GATEHOUSE_DB_CONNECT_TIMEOUT_SECONDS', 1, 3600) ?? 5,
    dbStatementTimeoutMs: integer(env, 'GATEHOUSE_DB_STATEMENT_TIMEOUT_MS', 0, 86_400_000) ?? 30_000,
    emailRetry: {
      maxAgeMs: (integer(env, 'GATEHOUSE_EMAIL_RETRY_MAX_AGE_SECONDS', 1) ?? 86_400) * 1000,
      backoffBaseMs: integer(env, 'GATEHOUSE_EMAIL_RETRY_BASE_MS', 1) ?? 2_000,
      backoffCapMs: integer(env, 'GATEHOUSE_EMAIL_RETRY_CAP_MS', 1) ?? 600_000,
      pollMs: integer(env, 'GATEHOUSE_EMAIL_POLL_MS', 10) ?? 1_000,
    },
    internalAnonymousSignUp: flag(env, 'GATEHOUSE_INTERNAL_ANONYMOUS_SIGN_UP') ?? false,
    projectCreation: projectCreation(env, isProduction),
    ownerMfaRequired: flag(env, 'GATEHOUSE_OWNER_MFA_REQUIRED') ?? isProduction,
  };
}
