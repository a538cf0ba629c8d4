// Everything the service reads from its environment, parsed once.
import { resolve } from 'node:path';
import type { OutboundPolicy } from './net/outbound-targets';

export interface Config {
  port: number;
  /** Interface to listen on (default all interfaces; `127.0.0.1` keeps the service local). */
  hostname: string;
  isProduction: boolean;
  databaseUrl?: string;
  dataDir: string;
  /** Public origin of the API, used in links the service builds (OAuth callback URLs). */
  publicUrl: string;
  /** Access-token lifetime in seconds (default 10 minutes; tests shorten it). */
  accessTokenLifetimeSeconds: number;
  /** Secret from which token-signing keys and encryption keys are derived; generated and stored if unset. */
  serverSecret?: string;
  smtpUrl?: string;
  smtpSender: string;
  /** Concurrent password hashes; each argon2id hash holds 19 MiB while it runs. */
  passwordHashConcurrency: number;
  /** Run the local OpenID provider for OAuth providers without credentials (development only). */
  devOidc: boolean;
  logRequests: boolean;
  /** Rate-limit overrides, e.g. `sign_in_ip=50/600,code_send_email=10/600`, or `off` (see auth/rate-limits.ts). */
  rateLimits?: string;
  /** Take the client IP from proxy headers (x-forwarded-for, x-real-ip); otherwise the socket address is used. */
  trustProxy: boolean;
  /** How long an OAuth sign-in may take between /authorize and the provider's callback (default 10 minutes). */
  oauthFlowLifetimeSeconds: number;
  /** Lifetime of every emailed code (sign-in, reset, verification); unset: each flow's own (auth/flow-emails.ts). */
  emailCodeLifetimeSeconds?: number;
  /**
   * Whether webhooks and project SMTP servers may be on private or internal networks (net/outbound-targets.ts).
   * GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS; default: allowed in development, refused in production.
   */
  outbound: OutboundPolicy;
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

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const isProduction = env.NODE_ENV === 'production';
  const port = Number(env.PORT ?? 8102);
  const cores = navigator.hardwareConcurrency ?? 2;
  return {
    port,
    hostname: env.HOST || '0.0.0.0',
    isProduction,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.GATEHOUSE_DATA_DIR ?? './data'),
    publicUrl: (env.GATEHOUSE_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    accessTokenLifetimeSeconds: Number(env.GATEHOUSE_ACCESS_TOKEN_LIFETIME_SECONDS ?? 600),
    serverSecret: env.GATEHOUSE_SERVER_SECRET || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    smtpSender: env.SMTP_SENDER ?? 'noreply@gatehouse.local',
    passwordHashConcurrency: Number(env.GATEHOUSE_PASSWORD_HASH_CONCURRENCY ?? Math.max(2, cores)),
    devOidc: !isProduction && env.GATEHOUSE_DEV_OIDC !== 'false',
    logRequests: env.GATEHOUSE_LOG_REQUESTS === 'true',
    rateLimits: env.GATEHOUSE_RATE_LIMITS || undefined,
    trustProxy: env.GATEHOUSE_TRUST_PROXY === 'true',
    oauthFlowLifetimeSeconds: seconds(env, 'GATEHOUSE_OAUTH_FLOW_LIFETIME_SECONDS') ?? 600,
    emailCodeLifetimeSeconds: seconds(env, 'GATEHOUSE_EMAIL_CODE_LIFETIME_SECONDS'),
    outbound: { allowPrivateNetworks: flag(env, 'GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS') ?? !isProduction },
  };
}
