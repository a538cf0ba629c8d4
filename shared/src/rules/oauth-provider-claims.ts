// Project-defined scopes and custom claims of a project's OpenID provider (issue 27): the rules a settings change must
// keep, and how a claim's value is read from a user's metadata. Pure: the service checks a change with them before it
// writes anything, and the console checks its form with the same ones.

/** The scopes the provider always has; a project scope may not take one of these names. */
export const STANDARD_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;
/** The standard scopes a claim mapping may name (offline_access releases no claims: it asks for a refresh token). */
export const CLAIM_RELEASING_STANDARD_SCOPES = ['openid', 'profile', 'email'] as const;
/** Where a claim's value may come from: the user's three metadata objects. */
export const CLAIM_SOURCE_ROOTS = ['client_metadata', 'client_read_only_metadata', 'server_metadata'] as const;

/**
 * Claim names a mapping may not take: those of the JWTs themselves (RFC 7519, OpenID Connect Core §2), those the
 * provider already fills (openid, profile, email), and those of the project's own access tokens (Stack's `branchId`,
 * `refreshTokenId`, and the names newer Stack tokens carry), which an `in_access_token` mapping would overwrite.
 */
export const RESERVED_CLAIMS: readonly string[] = [
  'sub', 'iss', 'aud', 'exp', 'iat', 'nbf', 'jti', 'auth_time', 'nonce', 'azp', 'sid', 'scope', 'client_id',
  'acr', 'amr', 'at_hash', 'c_hash', 's_hash', 'typ', 'cnf', 'act', 'may_act',
  'email', 'email_verified', 'name', 'picture',
  'branchId', 'refreshTokenId', 'branch_id', 'refresh_token_id', 'project_id', 'user_id', 'is_anonymous', 'role',
];

/** At most this many project scopes and claim mappings (the admin API's schema says so too). */
export const MAX_PROJECT_SCOPES = 50;
export const MAX_CLAIM_MAPPINGS = 50;

export interface ProjectScope { name: string; description: string }
export interface ClaimMapping { claim: string; source: string; scope: string; in_access_token: boolean }

/** RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), printable ASCII without space, `"` and `\`. */
export const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
/** A claim name: a letter, then letters, digits and `_ - . : /` (so collision-resistant URL names fit). */
export const CLAIM_NAME = /^[A-Za-z][A-Za-z0-9_.:/-]*$/;
/** `root` or `root.key.key...`, each key non-empty. */
export const CLAIM_SOURCE = /^(client_metadata|client_read_only_metadata|server_metadata)(\.[^.\s]+)*$/;

/**
 * Why these scopes and mappings cannot be kept, or null. Scopes are checked first, then each mapping in order, so
 * the first problem is named.
 */
export function providerClaimsViolation(scopes: readonly ProjectScope[], claims: readonly ClaimMapping[]): string | null {
  const names = new Set<string>();
  for (const scope of scopes) {
    if (!SCOPE_TOKEN.test(scope.name)) return `the scope name "${scope.name}" is not a scope token (RFC 6749 §3.3: printable ASCII, no space, quote or backslash).`;
    if ((STANDARD_SCOPES as readonly string[]).includes(scope.name)) return `the scope "${scope.name}" is a standard scope; a project scope needs another name.`;
    if (names.has(scope.name)) return `the scope "${scope.name}" is listed twice.`;
    names.add(scope.name);
  }
  const claimNames = new Set<string>();
  for (const mapping of claims) {
    if (!CLAIM_NAME.test(mapping.claim)) return `the claim name "${mapping.claim}" must start with a letter and hold only letters, digits and _ - . : /.`;
    if (RESERVED_CLAIMS.includes(mapping.claim)) return `the claim name "${mapping.claim}" is reserved.`;
    if (claimNames.has(mapping.claim)) return `the claim "${mapping.claim}" is mapped twice.`;
    claimNames.add(mapping.claim);
    if (!CLAIM_SOURCE.test(mapping.source)) {
      return `the source "${mapping.source}" of claim "${mapping.claim}" must be client_metadata, client_read_only_metadata or server_metadata, optionally followed by .key.key...`;
    }
    if (!names.has(mapping.scope) && !(CLAIM_RELEASING_STANDARD_SCOPES as readonly string[]).includes(mapping.scope)) {
      return `the claim "${mapping.claim}" names the scope "${mapping.scope}", which is neither openid, profile, email nor a project scope.`;
    }
  }
  return null;
}

/** The user's metadata, as the user record has them. */
export interface ClaimSourceUser {
  client_metadata: unknown; client_read_only_metadata: unknown; server_metadata: unknown;
}

/** The value at `source` in the user's metadata, or undefined when any step of the path is missing (or null). */
export function claimValue(user: ClaimSourceUser, source: string): unknown {
  const [root, ...path] = source.split('.');
  let value: unknown = user[root as keyof ClaimSourceUser];
  for (const key of path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value === null ? undefined : value;
}

/** The claims these mappings give for the user: only those with a value, and only those `include` lets through. */
export function mappedClaims(user: ClaimSourceUser, claims: readonly ClaimMapping[], include: (mapping: ClaimMapping) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const mapping of claims) {
    if (!include(mapping)) continue;
    const value = claimValue(user, mapping.source);
    if (value !== undefined) out[mapping.claim] = value;
  }
  return out;
}
