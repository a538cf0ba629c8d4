// Teams as customer organizations (issue 28): the email domains a team has proved it owns, and SCIM 2.0
// provisioning (RFC 7643/7644) by the team's identity provider. Every row carries its project, like the rest of the
// model; SCIM bearer tokens are stored only as sha256 hashes.
import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { projects, teamPermissionGrants, teams, users } from './schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

/**
 * An email domain a team claims. It is verified once a DNS TXT record at `_gatehouse-challenge.{domain}` carries
 * `gatehouse-domain-verification={challenge}`; the challenge is public by design (it is published in DNS and proves
 * nothing without control of the zone). A domain is verified for one team of a project at most.
 */
export const teamDomains = pgTable('team_domains', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
  /** Lower case, without a trailing dot. */
  domain: text('domain').notNull(),
  challenge: text('challenge').notNull(),
  verifiedAt: ts('verified_at'),
  lastCheckedAt: ts('last_checked_at'),
  /** Why the last check did not find the record (null after a check that found it). */
  lastCheckProblem: text('last_check_problem'),
  /** Addresses at this (verified) domain sign in only through the team's SSO connection. */
  ssoRequired: boolean('sso_required').notNull().default(false),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('team_domains_team_domain_idx').on(t.teamId, t.domain),
  uniqueIndex('team_domains_one_verified_idx').on(t.projectId, t.domain).where(sql`${t.verifiedAt} is not null`),
  index('team_domains_recheck_idx').on(t.lastCheckedAt).where(sql`${t.verifiedAt} is not null`),
]);

/** A SCIM bearer token of a team (its value is shown once, at creation). */
export const scimTokens = pgTable('scim_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  description: text('description').notNull(),
  createdAt: createdAt(),
  lastUsedAt: ts('last_used_at'),
}, (t) => [
  uniqueIndex('scim_tokens_hash_idx').on(t.tokenHash),
  index('scim_tokens_team_idx').on(t.teamId),
]);

/**
 * A user as the team's identity provider knows them. The SCIM id is the Gatehouse user id. `active` false: the
 * provider deactivated them (their sessions ended and their membership was removed; the record stays so that the
 * provider can read and reactivate it). `name` keeps SCIM's complex name attribute as sent.
 */
export const scimUsers = pgTable('scim_users', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  userName: text('user_name').notNull(),
  externalId: text('external_id'),
  active: boolean('active').notNull().default(true),
  name: jsonb('name'),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  primaryKey({ columns: [t.teamId, t.userId] }),
  // userName is case-insensitive in SCIM (RFC 7643 §4.1.1: caseExact false).
  uniqueIndex('scim_users_user_name_idx').on(t.teamId, sql`lower(${t.userName})`),
  uniqueIndex('scim_users_external_id_idx').on(t.teamId, t.externalId).where(sql`${t.externalId} is not null`),
  index('scim_users_user_idx').on(t.userId),
  // The list's order (a provider pages through every user of the team).
  index('scim_users_team_order_idx').on(t.teamId, t.createdAt, t.userId),
]);

/** A group pushed by the team's identity provider; `permissionIds` (set by the owner) are granted to its members. */
export const scimGroups = pgTable('scim_groups', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
  displayName: text('display_name').notNull(),
  externalId: text('external_id'),
  permissionIds: text('permission_ids').array().notNull().default(sql`'{}'::text[]`),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  uniqueIndex('scim_groups_name_idx').on(t.teamId, sql`lower(${t.displayName})`),
  uniqueIndex('scim_groups_external_id_idx').on(t.teamId, t.externalId).where(sql`${t.externalId} is not null`),
]);

export const scimGroupMembers = pgTable('scim_group_members', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  groupId: uuid('group_id').notNull().references(() => scimGroups.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').notNull(),
  userId: uuid('user_id').notNull(),
}, (t) => [
  primaryKey({ columns: [t.groupId, t.userId] }),
  foreignKey({ columns: [t.teamId, t.userId], foreignColumns: [scimUsers.teamId, scimUsers.userId] }).onDelete('cascade'),
  index('scim_group_members_user_idx').on(t.teamId, t.userId),
]);

/**
 * The team permissions SCIM granted (through group mappings), so that taking a group away revokes only what SCIM
 * gave: a permission an owner granted by hand before stays. Gone with the grant itself (revoked by hand or the
 * membership ended).
 */
export const scimPermissionGrants = pgTable('scim_permission_grants', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').notNull(),
  userId: uuid('user_id').notNull(),
  permissionId: text('permission_id').notNull(),
}, (t) => [
  primaryKey({ columns: [t.teamId, t.userId, t.permissionId] }),
  foreignKey({ columns: [t.teamId, t.userId, t.permissionId], foreignColumns: [teamPermissionGrants.teamId, teamPermissionGrants.userId, teamPermissionGrants.permissionId] }).onDelete('cascade'),
]);

/**
 * A team's enterprise sign-in connection: SAML 2.0 (Gatehouse the service provider) or OpenID Connect (Gatehouse the
 * relying party). `settings` holds what is not secret (the IdP's entity id, SSO URL and certificates; the issuer and
 * client id; the attribute mapping); an OIDC client secret is sealed with the server secret (db/secrets-at-rest.ts).
 */
export const ssoConnections = pgTable('sso_connections', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
  type: text('type').notNull(), // 'saml' | 'oidc'
  displayName: text('display_name').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  /** The IdP enforces MFA itself: a sign-in through it is not asked for the project's second factor. */
  idpEnforcesMfa: boolean('idp_enforces_mfa').notNull().default(false),
  settings: jsonb('settings').notNull(),
  clientSecretSealed: text('client_secret_sealed'),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [index('sso_connections_team_idx').on(t.teamId)]);

/** Who a connection's IdP says a Gatehouse user is (its subject: the SAML NameID or the OIDC `sub`). */
export const ssoIdentities = pgTable('sso_identities', {
  projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  connectionId: uuid('connection_id').notNull().references(() => ssoConnections.id, { onDelete: 'cascade' }),
  subject: text('subject').notNull(),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.connectionId, t.subject] }), index('sso_identities_user_idx').on(t.userId)]);

/** SAML assertion ids already accepted, until they expire: an assertion is used once (replay protection). */
export const ssoAssertionIds = pgTable('sso_assertion_ids', {
  connectionId: uuid('connection_id').notNull().references(() => ssoConnections.id, { onDelete: 'cascade' }),
  assertionId: text('assertion_id').notNull(),
  expiresAt: ts('expires_at').notNull(),
}, (t) => [primaryKey({ columns: [t.connectionId, t.assertionId] }), index('sso_assertion_ids_expiry_idx').on(t.expiresAt)]);
