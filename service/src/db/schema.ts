// The whole data model. Every row belongs to a project (`project_id`), and every query filters by it:
// one project's keys never reach another project's rows. Secrets are stored only as hashes
// (`*_hash` columns: sha256 hex of random tokens, argon2id/bcrypt for passwords).
import { sql } from 'drizzle-orm';
import {
  bigint, boolean, check, customType, date, foreignKey, index, integer, jsonb, pgTable, primaryKey, text,
  timestamp, uniqueIndex, uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

/** Key-value store for the service's own secrets (token signing secret), generated on first start. */
export const serviceSecrets = pgTable('service_secrets', {
  id: text('id').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/**
 * Access-token signing keys of the whole service (tokens/keys.ts): every project's key of a record derives from the
 * record's seed and the project id, so each project keeps its own keys and JWKS. A record is `next` (published, not
 * yet signing), `current` (signing; exactly one), `previous` (still verifying until its tokens have expired) or
 * `retired` (refused; its seed erased). `server-secret` records hold no seed: their keys derive from
 * GATEHOUSE_SERVER_SECRET as before key records existed (a database upgraded with tokens in circulation).
 */
export const signingKeys = pgTable('signing_keys', {
  id: text('id').primaryKey(),
  state: text('state').notNull(),
  algorithm: text('algorithm').notNull().default('ES256'),
  derivation: text('derivation').notNull().default('sealed-seed'),
  /** 32 random bytes, sealed with the server secret (db/secrets-at-rest.ts); null once retired. */
  seedSealed: text('seed_sealed'),
  createdAt: createdAt(),
  activatedAt: ts('activated_at'),
  deactivatedAt: ts('deactivated_at'),
  retiredAt: ts('retired_at'),
}, (t) => [
  uniqueIndex('signing_keys_one_next_one_current_idx').on(t.state).where(sql`${t.state} in ('next', 'current')`),
  check('signing_keys_state', sql`${t.state} in ('next', 'current', 'previous', 'retired')`),
  check('signing_keys_seed', sql`(${t.derivation} = 'sealed-seed' and (${t.seedSealed} is not null or ${t.state} = 'retired')) or (${t.derivation} = 'server-secret' and ${t.seedSealed} is null)`),
]);

/** A project. Its configuration (auth switches, domains, OAuth providers, email config, defaults) is one JSON document. */
export const projects = pgTable('projects', {
  id: text('id').primaryKey(), // 'internal' or a UUID
  displayName: text('display_name').notNull(),
  description: text('description').notNull().default(''),
  isProductionMode: boolean('is_production_mode').notNull().default(false),
  configId: uuid('config_id').notNull().defaultRandom(),
  config: jsonb('config').notNull(),
  /**
   * Gatehouse's own security settings (shared/src/schemas/security-settings.ts), apart from `config`, whose admin view
   * is the protocol's; keys missing here take their defaults.
   */
  securitySettings: jsonb('security_settings').notNull().default({}),
  createdAt: createdAt(),
});

/** Project API key sets: up to three keys, stored as sha256 hashes plus their last four characters. */
export const apiKeySets = pgTable('api_key_sets', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  description: text('description').notNull(),
  expiresAt: ts('expires_at').notNull(),
  manuallyRevokedAt: ts('manually_revoked_at'),
  publishableClientKeyHash: text('publishable_client_key_hash'),
  publishableClientKeyLastFour: text('publishable_client_key_last_four'),
  secretServerKeyHash: text('secret_server_key_hash'),
  secretServerKeyLastFour: text('secret_server_key_last_four'),
  superSecretAdminKeyHash: text('super_secret_admin_key_hash'),
  superSecretAdminKeyLastFour: text('super_secret_admin_key_last_four'),
  createdAt: createdAt(),
}, (t) => [
  index('api_key_sets_project_idx').on(t.projectId, t.createdAt),
  uniqueIndex('api_key_sets_pck_idx').on(t.publishableClientKeyHash),
  uniqueIndex('api_key_sets_ssk_idx').on(t.secretServerKeyHash),
  uniqueIndex('api_key_sets_sak_idx').on(t.superSecretAdminKeyHash),
]);

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  displayName: text('display_name'),
  profileImageUrl: text('profile_image_url'),
  clientMetadata: jsonb('client_metadata'),
  clientReadOnlyMetadata: jsonb('client_read_only_metadata'),
  serverMetadata: jsonb('server_metadata'),
  isAnonymous: boolean('is_anonymous').notNull().default(false),
  // Auth methods. The password hash is argon2id (ours) or bcrypt (imported); null = no password method.
  passwordHash: text('password_hash'),
  otpAuthEnabled: boolean('otp_auth_enabled').notNull().default(false),
  totpSecret: bytea('totp_secret'),
  lastActiveAt: ts('last_active_at'),
  // A summary of the user's other rows (primary email, passkey, OAuth links, selected team), kept current by
  // database triggers (see drizzle/*_user_summary.sql) so that loading a user is one primary-key read.
  primaryEmail: text('primary_email'),
  primaryEmailVerified: boolean('primary_email_verified').notNull().default(false),
  primaryEmailAuthEnabled: boolean('primary_email_auth_enabled').notNull().default(false),
  hasPasskey: boolean('has_passkey').notNull().default(false),
  oauthProviders: jsonb('oauth_providers').notNull().default([]),
  selectedTeamId: uuid('selected_team_id'),
  createdAt: createdAt(),
}, (t) => [
  // Keyset pagination of the user list by sign-up time.
  index('users_project_created_idx').on(t.projectId, t.createdAt, t.id),
]);

export const contactChannels = pgTable('contact_channels', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  type: text('type').notNull().default('email'),
  value: text('value').notNull(),
  isVerified: boolean('is_verified').notNull().default(false),
  isPrimary: boolean('is_primary').notNull().default(false),
  usedForAuth: boolean('used_for_auth').notNull().default(false),
  // Set when a client added this address (or made it a sign-in address) unverified: it signs in and receives
  // reset/sign-in codes only once verified (a stolen access token must not add a recovery address).
  authRequiresVerification: boolean('auth_requires_verification').notNull().default(false),
  createdAt: createdAt(),
}, (t) => [
  index('contact_channels_user_idx').on(t.userId, t.createdAt),
  uniqueIndex('contact_channels_user_value_idx').on(t.userId, t.type, t.value),
  // At most one primary channel per user and type; at most one auth channel per project, type and value.
  uniqueIndex('contact_channels_primary_idx').on(t.userId, t.type).where(sql`${t.isPrimary}`),
  uniqueIndex('contact_channels_auth_idx').on(t.projectId, t.type, t.value).where(sql`${t.usedForAuth}`),
]);

/** Sessions: one row per refresh token (stored as a hash). */
export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  refreshTokenHash: text('refresh_token_hash').notNull(),
  isImpersonation: boolean('is_impersonation').notNull().default(false),
  expiresAt: ts('expires_at'),
  lastUsedAt: ts('last_used_at'),
  lastUsedIpInfo: jsonb('last_used_ip_info'),
  /** The browser's user agent at sign-in (cut at 512 characters): which browser and system, for the sessions list. */
  userAgent: text('user_agent'),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('sessions_refresh_token_idx').on(t.refreshTokenHash),
  index('sessions_user_idx').on(t.userId, t.createdAt),
]);

/**
 * Sessions ended before their time (sign-out, revocation, password reset, user deletion), written by a trigger on
 * `sessions` (drizzle/*_revoked_sessions_trigger.sql) that also NOTIFYs every instance. Each instance keeps the
 * recent ones in memory and refuses their access tokens (auth/revoked-sessions.ts); rows older than the access-token
 * lifetime are useless and pruned.
 */
export const revokedSessions = pgTable('revoked_sessions', {
  sessionId: uuid('session_id').primaryKey(),
  projectId: text('project_id').notNull(),
  revokedAt: ts('revoked_at').notNull().defaultNow(),
}, (t) => [index('revoked_sessions_revoked_at_idx').on(t.revokedAt)]);

/**
 * The devices a user has signed in from (ASVS 2.5.5: a sign-in from a new one is noticed): a hash of the browser and
 * system its user agent names (versions left out, so an update is no new device). Written by the activity flush.
 */
export const knownDevices = pgTable('known_devices', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  deviceHash: text('device_hash').notNull(),
  firstSeenAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.userId, t.deviceHash] }), index('known_devices_project_idx').on(t.projectId)]);

/** One row per user and day with activity: daily-active-user metrics and users by country. */
export const userActivityDays = pgTable('user_activity_days', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  day: date('day', { mode: 'string' }).notNull(),
  countryCode: text('country_code'),
}, (t) => [
  primaryKey({ columns: [t.userId, t.day] }),
  index('user_activity_days_project_idx').on(t.projectId, t.day),
]);

export const teams = pgTable('teams', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  displayName: text('display_name').notNull(),
  profileImageUrl: text('profile_image_url'),
  clientMetadata: jsonb('client_metadata'),
  clientReadOnlyMetadata: jsonb('client_read_only_metadata'),
  serverMetadata: jsonb('server_metadata'),
  createdAt: createdAt(),
}, (t) => [index('teams_project_idx').on(t.projectId, t.createdAt)]);

/** Team memberships, with the member's per-team profile overrides and the selected-team flag. */
export const teamMembers = pgTable('team_members', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  displayName: text('display_name'),
  profileImageUrl: text('profile_image_url'),
  isSelected: boolean('is_selected').notNull().default(false),
  createdAt: createdAt(),
}, (t) => [
  primaryKey({ columns: [t.teamId, t.userId] }),
  index('team_members_user_idx').on(t.userId),
  uniqueIndex('team_members_selected_idx').on(t.userId).where(sql`${t.isSelected}`),
]);

/** Permission definitions of a project, team- or project-scoped, sharing one id namespace. */
export const permissionDefinitions = pgTable('permission_definitions', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  id: text('id').notNull(),
  scope: text('scope').notNull(), // 'team' | 'project'
  description: text('description'),
  containedPermissionIds: text('contained_permission_ids').array().notNull().default(sql`'{}'::text[]`),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.projectId, t.id] })]);

/** Direct team permission grants (system `$…` ids or custom definition ids). */
export const teamPermissionGrants = pgTable('team_permission_grants', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').notNull(),
  userId: uuid('user_id').notNull(),
  permissionId: text('permission_id').notNull(),
  createdAt: createdAt(),
}, (t) => [
  primaryKey({ columns: [t.teamId, t.userId, t.permissionId] }),
  foreignKey({ columns: [t.teamId, t.userId], foreignColumns: [teamMembers.teamId, teamMembers.userId] }).onDelete('cascade'),
  index('team_permission_grants_project_idx').on(t.projectId, t.permissionId),
]);

/** Direct project (user-level) permission grants. */
export const projectPermissionGrants = pgTable('project_permission_grants', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  permissionId: text('permission_id').notNull(),
  createdAt: createdAt(),
}, (t) => [
  primaryKey({ columns: [t.userId, t.permissionId] }),
  index('project_permission_grants_project_idx').on(t.projectId, t.permissionId),
]);

/**
 * Verification codes of every purpose (OTP sign-in, email verification, password reset, team invitation,
 * MFA attempt, passkey challenges). The code is stored as a sha256 hash; `nonce_hash` is the hash of its last
 * 39 characters, so an attempt on any code sharing a nonce can be counted (OTP guessing throttle).
 */
export const verificationCodes = pgTable('verification_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  codeHash: text('code_hash').notNull(),
  nonceHash: text('nonce_hash').notNull(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  attemptCount: integer('attempt_count').notNull().default(0),
  redirectUrl: text('redirect_url'),
  method: jsonb('method').notNull().default({}),
  data: jsonb('data').notNull().default({}),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('verification_codes_code_idx').on(t.projectId, t.codeHash),
  index('verification_codes_nonce_idx').on(t.projectId, t.nonceHash),
  index('verification_codes_type_idx').on(t.projectId, t.type, t.expiresAt),
]);

/** Per-project overrides of the default email templates. */
export const emailTemplates = pgTable('email_templates', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  subject: text('subject').notNull(),
  content: jsonb('content').notNull(),
  updatedAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.projectId, t.type] })]);

/** Durable email outbox; its delivery attempts are logged in `email_attempts`. */
export const emails = pgTable('emails', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  to: text('to').array().notNull(),
  /** The subject as recorded: every code and link token replaced by a placeholder (email/redaction.ts). */
  subject: text('subject').notNull(),
  /** The live message while it is queued (sealed: email/outbox.ts), deleted once it is sent or given up. */
  liveSubject: text('live_subject'),
  html: text('html'),
  text: text('text'),
  /** What the recipient received, with every code and link token replaced by a placeholder: kept for the owner. */
  redactedHtml: text('redacted_html'),
  redactedText: text('redacted_text'),
  senderConfig: jsonb('sender_config').notNull(),
  transportConfig: jsonb('transport_config'),
  status: text('status').notNull().default('pending'), // pending | sending | sent | failed
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
  lastAttemptAt: ts('last_attempt_at'),
  lastError: jsonb('last_error'),
  sentAt: ts('sent_at'),
  createdAt: createdAt(),
  /** Expiry of the code the mail carries: retried until then, never sent after (null: not a code mail). */
  codeExpiresAt: ts('code_expires_at'),
}, (t) => [
  index('emails_due_idx').on(t.status, t.nextAttemptAt),
  index('emails_project_idx').on(t.projectId, t.createdAt),
]);

/**
 * One row per finished delivery attempt of an `emails` row (or the one synchronous test email): the sent-email
 * list (`GET /internal/emails`). `error` null = the server accepted the mail.
 */
export const emailAttempts = pgTable('email_attempts', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  emailId: uuid('email_id').notNull().references(() => emails.id, { onDelete: 'cascade' }),
  error: jsonb('error'),
  createdAt: createdAt(),
}, (t) => [
  index('email_attempts_project_idx').on(t.projectId, t.createdAt),
  index('email_attempts_email_idx').on(t.emailId),
]);

/** WebAuthn credentials (one passkey per user). */
export const passkeys = pgTable('passkeys', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  credentialId: text('credential_id').notNull(),
  publicKey: bytea('public_key').notNull(),
  counter: bigint('counter', { mode: 'number' }).notNull().default(0),
  transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
  deviceType: text('device_type'),
  backedUp: boolean('backed_up').notNull().default(false),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('passkeys_user_idx').on(t.userId),
  uniqueIndex('passkeys_credential_idx').on(t.projectId, t.credentialId),
]);

/** Accounts at OAuth providers, connected to a user (for sign-in when `used_for_auth`, and/or for access tokens). */
export const oauthAccounts = pgTable('oauth_accounts', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  providerId: text('provider_id').notNull(),
  providerAccountId: text('provider_account_id').notNull(),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  email: text('email'),
  usedForAuth: boolean('used_for_auth').notNull().default(true),
  createdAt: createdAt(),
}, (t) => [
  primaryKey({ columns: [t.projectId, t.providerId, t.providerAccountId] }),
  index('oauth_accounts_user_idx').on(t.userId),
]);

/**
 * Provider tokens, kept to answer /connected-accounts/.../access-token. They must be usable, so they cannot be
 * hashed: they are encrypted (AES-GCM with a key derived from the service secret).
 */
export const oauthTokens = pgTable('oauth_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  providerId: text('provider_id').notNull(),
  providerAccountId: text('provider_account_id').notNull(),
  kind: text('kind').notNull(), // 'access' | 'refresh'
  tokenEncrypted: text('token_encrypted').notNull(),
  scopes: text('scopes').array().notNull(),
  expiresAt: ts('expires_at'),
  createdAt: createdAt(),
  // Led by user_id: every lookup names the user (user ids are unique across projects), and so does the cascade of a
  // user delete, which with project_id leading read the whole table.
}, (t) => [index('oauth_tokens_account_idx').on(t.userId, t.providerId)]);

/** Outer OAuth flow state between /authorize and /callback (10 minutes). */
export const oauthStates = pgTable('oauth_states', {
  innerState: text('inner_state').primaryKey(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  data: jsonb('data').notNull(),
  expiresAt: ts('expires_at').notNull(),
  createdAt: createdAt(),
});

/** Outer OAuth authorization codes (5 minutes, single use), stored hashed. */
export const authorizationCodes = pgTable('authorization_codes', {
  codeHash: text('code_hash').primaryKey(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  redirectUri: text('redirect_uri').notNull(),
  codeChallenge: text('code_challenge').notNull(),
  codeChallengeMethod: text('code_challenge_method').notNull(),
  isNewUser: boolean('is_new_user').notNull(),
  /** The sign-in came through an SSO connection whose IdP enforces MFA: the project's second factor is not asked. */
  mfaSatisfied: boolean('mfa_satisfied').notNull().default(false),
  afterCallbackRedirectUrl: text('after_callback_redirect_url'),
  expiresAt: ts('expires_at').notNull(),
  createdAt: createdAt(),
  // The cascade of a user delete finds the user's codes by it (without it, a read of the whole table per delete).
}, (t) => [index('authorization_codes_user_idx').on(t.userId)]);

/** CLI login attempts. */
export const cliAuthAttempts = pgTable('cli_auth_attempts', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  pollingCodeHash: text('polling_code_hash').notNull(),
  loginCodeHash: text('login_code_hash').notNull(),
  // The refresh token handed to the CLI, encrypted until the first successful poll, then erased.
  refreshTokenEncrypted: text('refresh_token_encrypted'),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('cli_auth_attempts_polling_idx').on(t.projectId, t.pollingCodeHash),
  // Login codes are random: the hash alone finds the attempt, also across projects ("Project ID mismatch").
  uniqueIndex('cli_auth_attempts_login_idx').on(t.loginCodeHash),
]);

/** Fixed-window rate-limit counters, in the database so they hold across service instances. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: ts('window_start').notNull(),
  count: integer('count').notNull(),
}, (t) => [index('rate_limits_window_idx').on(t.windowStart)]);

/** Webhook endpoints of a project (Standard Webhooks signing secret kept to sign, so encrypted). */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  description: text('description'),
  secretEncrypted: text('secret_encrypted').notNull(),
  eventTypes: text('event_types').array(), // null = all events
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
}, (t) => [index('webhook_endpoints_project_idx').on(t.projectId)]);

/** Durable webhook delivery outbox. */
export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  endpointId: uuid('endpoint_id').notNull().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
  eventType: text('event_type').notNull(),
  payload: jsonb('payload').notNull(),
  status: text('status').notNull().default('pending'), // pending | sending | delivered | failed
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
  lastError: text('last_error'),
  /** HTTP status of the last attempt; null before the first attempt and when no response came (refused, timeout). */
  lastResponseStatus: integer('last_response_status'),
  lastAttemptAt: ts('last_attempt_at'),
  deliveredAt: ts('delivered_at'),
  createdAt: createdAt(),
}, (t) => [
  index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
  // An endpoint's recent deliveries (the console's list), newest first.
  index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
]);

/** User and team API keys (exactly one owner): the secret is stored as a sha256 hash plus its last four characters. */
export const userTeamApiKeys = pgTable('user_team_api_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
  description: text('description').notNull(),
  isPublic: boolean('is_public').notNull().default(false),
  secretHash: text('secret_hash').notNull(),
  lastFour: text('last_four').notNull(),
  expiresAt: ts('expires_at'),
  manuallyRevokedAt: ts('manually_revoked_at'),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('user_team_api_keys_secret_idx').on(t.secretHash),
  index('user_team_api_keys_user_idx').on(t.userId, t.createdAt),
  index('user_team_api_keys_team_idx').on(t.teamId, t.createdAt),
  check('user_team_api_keys_one_owner', sql`(${t.userId} is null) <> (${t.teamId} is null)`),
]);

/**
 * Append-only audit log of owner-plane actions (impersonation, API keys, configuration changes, project creation
 * and deletion), listed with GET /internal/audit-log. No foreign key on purpose: rows outlive their project, and a
 * trigger (migration 0014) refuses UPDATE and DELETE, so a cascade could not remove them anyway.
 */
export const auditLog = pgTable('audit_log', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  projectId: text('project_id').notNull(),
  event: text('event').notNull(),
  /** Who acted: an internal-project user (admin access token), or null for a key. */
  actorUserId: uuid('actor_user_id'),
  /** How they acted: `admin_key`, `server_key`, `admin_token` (an owner's access token) or `client` (a user). */
  actorKind: text('actor_kind').notNull(),
  ip: text('ip'),
  requestId: text('request_id'),
  /** What was acted on (a user id, API key set id, project id); never a secret. */
  target: text('target'),
  /** The project user the entry concerns (who signed in, whose password or key changed); null if none is known. */
  subjectUserId: uuid('subject_user_id'),
  details: jsonb('details').notNull().default({}),
  createdAt: createdAt(),
}, (t) => [
  index('audit_log_project_idx').on(t.projectId, t.id),
  // The console's filtered reads (issue 26): one user's entries (as actor or subject), one kind's.
  index('audit_log_subject_idx').on(t.projectId, t.subjectUserId, t.id),
  index('audit_log_actor_idx').on(t.projectId, t.actorUserId, t.id),
  index('audit_log_event_idx').on(t.projectId, t.event, t.id),
  // A team's entries (the Enterprise SSO tab's provisioning log): only the entries that name a team are indexed.
  index('audit_log_team_idx').on(t.projectId, sql`(${t.details}->>'team_id')`, t.id).where(sql`(${t.details}->>'team_id') is not null`),
]);

/**
 * OAuth clients of a project's own OpenID provider (issue 27: the project as an identity provider). A confidential
 * client's secret is kept only as its sha256 (random, 256 bits), checked by the provider through that hash.
 */
export const oauthProviderClients = pgTable('oauth_provider_clients', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  clientId: text('client_id').notNull(),
  displayName: text('display_name').notNull(),
  clientType: text('client_type').notNull(),
  secretHash: text('secret_hash'),
  redirectUris: text('redirect_uris').array().notNull(),
  grantTypes: text('grant_types').array().notNull(),
  scopes: text('scopes').array().notNull(),
  logoUrl: text('logo_url'),
  /** Token lifetimes in seconds (the bounds are OAUTH_PROVIDER_TOKEN_LIFETIMES', held here too). */
  accessTokenLifetimeSeconds: integer('access_token_lifetime_seconds').notNull().default(3600),
  idTokenLifetimeSeconds: integer('id_token_lifetime_seconds').notNull().default(3600),
  refreshTokenLifetimeSeconds: integer('refresh_token_lifetime_seconds').notNull().default(30 * 86400),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  primaryKey({ columns: [t.projectId, t.clientId] }),
  uniqueIndex('oauth_provider_clients_client_id_idx').on(t.clientId),
  check('oauth_provider_clients_lifetimes', sql`${t.accessTokenLifetimeSeconds} between 60 and 86400 and ${t.idTokenLifetimeSeconds} between 60 and 86400 and ${t.refreshTokenLifetimeSeconds} between 3600 and 31536000`),
  check('oauth_provider_clients_type', sql`${t.clientType} in ('confidential', 'public')`),
  check('oauth_provider_clients_secret', sql`(${t.clientType} = 'confidential') = (${t.secretHash} is not null)`),
]);

/**
 * Per-project settings of its OpenID provider (issue 27): whether anyone may register a client (RFC 7591, off unless
 * turned on), the protected resources (RFC 8707 resource indicators) it issues access tokens for, its own scopes and
 * custom claims. No row: defaults.
 */
export const oauthProviderSettings = pgTable('oauth_provider_settings', {
  projectId: text('project_id').primaryKey().references(() => projects.id, { onDelete: 'cascade' }),
  dynamicClientRegistration: boolean('dynamic_client_registration').notNull().default(false),
  resources: text('resources').array().notNull().default(sql`'{}'::text[]`),
  /** The project's own scopes, `[{name, description}]` (oauth-provider/settings.ts checks them). */
  scopes: jsonb('scopes').$type<{ name: string; description: string }[]>().notNull().default(sql`'[]'::jsonb`),
  /** Custom claims from user metadata, `[{claim, source, scope, in_access_token}]`; the project record carries those
   * with `in_access_token` (repo/projects.ts), so the access tokens of a refresh need no read more. */
  claims: jsonb('claims').$type<{ claim: string; source: string; scope: string; in_access_token: boolean }[]>().notNull().default(sql`'[]'::jsonb`),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * What a project's OpenID provider stores (its adapter, oauth-provider/adapter.ts): sessions, interactions, grants,
 * authorization codes, access and refresh tokens. A row is keyed by the sha256 of the model's id, and the id (`jti`) is
 * left out of the payload: for codes and opaque tokens the id is the credential itself, so no column holds one usable
 * as it is. `grant_id` lets a grant's tokens be revoked together; `account_id` ties them to their user.
 */
export const oauthProviderRecords = pgTable('oauth_provider_records', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  model: text('model').notNull(),
  idHash: text('id_hash').notNull(),
  uidHash: text('uid_hash'),
  grantId: text('grant_id'),
  /** The user a grant, token or session is for: deleting the user deletes them. */
  accountId: uuid('account_id').references(() => users.id, { onDelete: 'cascade' }),
  clientId: text('client_id'),
  payload: jsonb('payload').notNull(),
  expiresAt: ts('expires_at'),
  consumedAt: ts('consumed_at'),
  createdAt: createdAt(),
}, (t) => [
  primaryKey({ columns: [t.projectId, t.model, t.idHash] }),
  index('oauth_provider_records_grant_idx').on(t.projectId, t.grantId),
  index('oauth_provider_records_uid_idx').on(t.projectId, t.model, t.uidHash),
  index('oauth_provider_records_expiry_idx').on(t.expiresAt),
  index('oauth_provider_records_account_idx').on(t.accountId),
]);

/** Signing keys of a project's OpenID provider (ES256 and RS256), private JWKs sealed with the server secret. */
export const oauthProviderKeys = pgTable('oauth_provider_keys', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  kid: text('kid').notNull(),
  alg: text('alg').notNull(),
  privateJwkSealed: text('private_jwk_sealed').notNull(),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.projectId, t.kid] }), uniqueIndex('oauth_provider_keys_alg_idx').on(t.projectId, t.alg)]);

/** Consent a user gave a client of the project's OpenID provider: remembered per user and client. */
export const oauthProviderConsents = pgTable('oauth_provider_consents', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  clientId: text('client_id').notNull(),
  scopes: text('scopes').array().notNull(),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  primaryKey({ columns: [t.projectId, t.userId, t.clientId] }),
  foreignKey({ name: 'oauth_provider_consents_client_fk', columns: [t.projectId, t.clientId], foreignColumns: [oauthProviderClients.projectId, oauthProviderClients.clientId] }).onDelete('cascade'),
  // The cascades of a user's or a client's delete find their consents by these (query-plans.test.ts holds every
  // foreign key to one).
  index('oauth_provider_consents_user_idx').on(t.userId),
  index('oauth_provider_consents_client_idx').on(t.projectId, t.clientId),
]);
