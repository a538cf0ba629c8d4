// Users in the console: keyset paging over `GET /users` (a stack of cursors, never an offset), how a user signs
// in, the create form (the service's own schema and password rule), the metadata editors' JSON rule, and the
// address that opens the project's demo as an impersonated user.
import { ServerUserCreate } from '@gatehouse/shared/schemas/users';
import { parseJsonText, passwordText } from './field-rules';
import { formErrors, schemaProblems } from './schema-check';

export const USERS_PAGE_SIZE = 25;

/** Where the list is: the cursor of every page seen so far (the first page has none), and the one shown. */
export interface Paging {
  cursors: readonly (string | undefined)[];
  index: number;
}

export const FIRST_PAGE: Paging = { cursors: [undefined], index: 0 };

export function currentCursor(p: Paging): string | undefined {
  return p.cursors[p.index];
}

/** The page after the shown one; `nextCursor` is the one the service returned with the shown page. */
export function nextPage(p: Paging, nextCursor: string | null): Paging {
  if (nextCursor === null) return p;
  return { cursors: [...p.cursors.slice(0, p.index + 1), nextCursor], index: p.index + 1 };
}

export function previousPage(p: Paging): Paging {
  return p.index === 0 ? p : { cursors: p.cursors, index: p.index - 1 };
}

export type SignInMethod = { kind: 'password' | 'otp' | 'passkey' } | { kind: 'oauth'; provider: string };

export interface UserAuthFields {
  hasPassword: boolean;
  otpAuthEnabled: boolean;
  passkeyAuthEnabled: boolean;
  oauthProviders: readonly { id: string }[];
}

/** The ways the user can sign in, in the order the table shows them. */
export function signInMethods(u: UserAuthFields): SignInMethod[] {
  const out: SignInMethod[] = [];
  if (u.hasPassword) out.push({ kind: 'password' });
  if (u.otpAuthEnabled) out.push({ kind: 'otp' });
  if (u.passkeyAuthEnabled) out.push({ kind: 'passkey' });
  for (const p of u.oauthProviders) out.push({ kind: 'oauth', provider: p.id });
  return out;
}

/**
 * Has the user ever been active (signed in, refreshed a session)? The API answers a never-active user's
 * `last_active_at_millis` with its sign-up time, exactly (Stack's shape has no null there); any activity is recorded
 * at its own, later moment.
 */
export function hasBeenActive(u: { signedUpAt: Date; lastActiveAt: Date }): boolean {
  return u.lastActiveAt.getTime() !== u.signedUpAt.getTime();
}

/** Initials for the avatar of a user without a picture. */
export function initials(name: string | null, email: string | null): string {
  const source = (name?.trim() || email?.split('@')[0] || '?').replace(/[^\p{L}\p{N} ]/gu, ' ').trim() || '?';
  const words = source.split(/\s+/);
  return ((words[0]?.[0] ?? '?') + (words.length > 1 ? words[words.length - 1]![0] : '')).toUpperCase();
}

/** How a user made in the console gets in: a password given here, or a sign-in code mailed to their address. */
export type WayIn = 'password' | 'code';

export interface CreateUserValues {
  email: string;
  wayIn: WayIn;
  /** Used when `wayIn` is 'password'. */
  password: string;
  verified: boolean;
  displayName: string;
}

export function createUserBody(v: CreateUserValues) {
  return {
    primaryEmail: v.email.trim(),
    primaryEmailAuthEnabled: true,
    primaryEmailVerified: v.verified,
    // A user with neither could not sign in at all (issue 26): the form always gives one.
    ...(v.wayIn === 'password' ? { password: v.password } : { otpAuthEnabled: true }),
    ...(v.displayName.trim() ? { displayName: v.displayName.trim() } : {}),
  };
}

/**
 * Why a user cannot sign in, or null when they can: no password, no sign-in code (or the project's codes off),
 * no passkey and no OAuth account. The user page says so.
 */
export function noWayInReason(
  u: UserAuthFields & { primaryEmail: string | null }, project: { magicLinkEnabled: boolean; credentialEnabled: boolean; passkeyEnabled: boolean },
): 'none' | 'codesOff' | 'passwordOff' | null {
  const byPassword = u.hasPassword && project.credentialEnabled;
  const byCode = u.otpAuthEnabled && !!u.primaryEmail && project.magicLinkEnabled;
  const byPasskey = u.passkeyAuthEnabled && project.passkeyEnabled;
  if (byPassword || byCode || byPasskey || u.oauthProviders.length > 0) return null;
  if (u.otpAuthEnabled && !project.magicLinkEnabled) return 'codesOff';
  if (u.hasPassword && !project.credentialEnabled) return 'passwordOff';
  return 'none';
}

/** Field errors before anything is sent: the schema the service checks the body with, and its password rule. */
export function validateCreateUser(v: CreateUserValues, texts: { required: string; invalidEmail: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const email = v.email.trim();
  if (!email) errors.email = texts.required;
  const body = createUserBody(v);
  const problems = schemaProblems(ServerUserCreate, {
    primary_email: email || undefined,
    primary_email_verified: body.primaryEmailVerified,
    display_name: body.displayName,
  });
  const found = formErrors(problems, { '/primary_email': 'email', '/display_name': 'displayName' });
  if (found.email && !errors.email) errors.email = texts.invalidEmail;
  if (found.displayName) errors.displayName = found.displayName;
  if (v.wayIn === 'password') {
    const passwordProblem = v.password ? passwordText(v.password) : texts.required;
    if (passwordProblem) errors.password = passwordProblem;
  }
  return errors;
}

/** A metadata editor's text: empty means null (no metadata); anything else must be JSON. */
export const parseMetadata = parseJsonText;

export function metadataText(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
}

export const METADATA_TIERS = ['clientMetadata', 'clientReadOnlyMetadata', 'serverMetadata'] as const;
export type MetadataTier = (typeof METADATA_TIERS)[number];

/**
 * The project's demo (served by the same service) signed in with an impersonation session: the project and its
 * publishable key go in the query, which the demo remembers; the refresh token goes in the fragment, which is
 * never sent to a server, and the demo moves it into its cookie and removes it from the address at once.
 */
export function impersonationUrl(serviceUrl: string, o: { projectId: string; publishableClientKey: string; refreshToken: string }): string {
  const url = new URL('/handler/account-settings', serviceUrl);
  url.searchParams.set('project_id', o.projectId);
  url.searchParams.set('publishable_client_key', o.publishableClientKey);
  url.hash = new URLSearchParams({ impersonation_refresh_token: o.refreshToken }).toString();
  return url.toString();
}

/** The one-hour publishable key an impersonation opens the demo with (the console only knows keys' last four). */
export const IMPERSONATION_KEY_LIFETIME_MS = 60 * 60 * 1000;

export interface ProfileValues {
  displayName: string;
  primaryEmail: string;
  primaryEmailVerified: boolean;
  primaryEmailAuthEnabled: boolean;
  /** Empty: the password stays as it is. */
  newPassword: string;
}

export interface ProfileFields {
  displayName: string | null;
  primaryEmail: string | null;
  primaryEmailVerified: boolean;
  primaryEmailAuthEnabled: boolean;
}

export function profileValues(u: ProfileFields): ProfileValues {
  return {
    displayName: u.displayName ?? '',
    primaryEmail: u.primaryEmail ?? '',
    primaryEmailVerified: u.primaryEmailVerified,
    primaryEmailAuthEnabled: u.primaryEmailAuthEnabled,
    newPassword: '',
  };
}

/** Only what changed is sent (the server-writable fields); empty name or email clear them. */
export function profileUpdate(before: ProfileFields, v: ProfileValues) {
  const out: {
    displayName?: string | null; primaryEmail?: string | null; primaryEmailVerified?: boolean; primaryEmailAuthEnabled?: boolean; password?: string;
  } = {};
  const name = v.displayName.trim() || null;
  const email = v.primaryEmail.trim() || null;
  if (name !== before.displayName) out.displayName = name;
  if (email !== before.primaryEmail) out.primaryEmail = email;
  if (v.primaryEmailVerified !== before.primaryEmailVerified) out.primaryEmailVerified = v.primaryEmailVerified;
  if (v.primaryEmailAuthEnabled !== before.primaryEmailAuthEnabled) out.primaryEmailAuthEnabled = v.primaryEmailAuthEnabled;
  if (v.newPassword) out.password = v.newPassword;
  return out;
}

export function validateProfile(v: ProfileValues, texts: { invalidEmail: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const problems = schemaProblems(ServerUserCreate, {
    primary_email: v.primaryEmail.trim() || null,
    display_name: v.displayName.trim() || null,
  });
  const found = formErrors(problems, { '/primary_email': 'primaryEmail', '/display_name': 'displayName' });
  if (found.primaryEmail) errors.primaryEmail = texts.invalidEmail;
  if (found.displayName) errors.displayName = found.displayName;
  const passwordProblem = v.newPassword ? passwordText(v.newPassword) : null;
  if (passwordProblem) errors.newPassword = passwordProblem;
  return errors;
}
