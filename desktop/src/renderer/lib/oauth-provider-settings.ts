// The OAuth apps screen's provider settings form (issue 27): the project's own scopes and the custom claims mapped
// from user metadata. Its starting values, what it sends, and its checks before sending, field by field, by the same
// rules the service keeps (shared/src/rules/oauth-provider-claims.ts), which refuses the whole change otherwise with
// OAUTH_PROVIDER_SETTINGS_INVALID.
import type { OAuthProviderSettings, OAuthProviderSettingsUpdateOptions } from '@gatehouse/shared/client';
import {
  CLAIM_NAME, CLAIM_RELEASING_STANDARD_SCOPES, CLAIM_SOURCE, MAX_CLAIM_MAPPINGS, MAX_PROJECT_SCOPES, RESERVED_CLAIMS, SCOPE_TOKEN, STANDARD_SCOPES,
} from '@gatehouse/shared/rules/oauth-provider-claims';

/** The service's limit on a project scope's description. */
export const MAX_SCOPE_DESCRIPTION = 300;
export { MAX_CLAIM_MAPPINGS, MAX_PROJECT_SCOPES };

export interface ScopeRow { name: string; description: string }
export interface ClaimRow { claim: string; source: string; scope: string; inAccessToken: boolean }
export interface ProviderSettingsFormValues { scopes: ScopeRow[]; claims: ClaimRow[] }

export function providerSettingsFormValues(s: OAuthProviderSettings): ProviderSettingsFormValues {
  return {
    scopes: s.scopes.map((x) => ({ name: x.name, description: x.description })),
    claims: s.claims.map((c) => ({ claim: c.claim, source: c.source, scope: c.scope, inAccessToken: c.inAccessToken })),
  };
}

export const emptyScopeRow = (): ScopeRow => ({ name: '', description: '' });
export const emptyClaimRow = (): ClaimRow => ({ claim: '', source: 'client_metadata.', scope: 'openid', inAccessToken: false });

/** What is sent: every value trimmed; both lists replace the stored ones. */
export function providerSettingsUpdateOptions(v: ProviderSettingsFormValues): Required<Pick<OAuthProviderSettingsUpdateOptions, 'scopes' | 'claims'>> {
  return {
    scopes: v.scopes.map((s) => ({ name: s.name.trim(), description: s.description.trim() })),
    claims: v.claims.map((c) => ({ claim: c.claim.trim(), source: c.source.trim(), scope: c.scope, inAccessToken: c.inAccessToken })),
  };
}

/** The scopes a claim may be released by: openid, profile, email, then the project scopes named in the form. */
export function claimScopeOptions(v: ProviderSettingsFormValues): string[] {
  const own = v.scopes.map((s) => s.name.trim()).filter((n) => SCOPE_TOKEN.test(n) && !(STANDARD_SCOPES as readonly string[]).includes(n));
  return [...new Set([...CLAIM_RELEASING_STANDARD_SCOPES, ...own])];
}

export interface ProviderSettingsFormMessages {
  required: string;
  scopeToken: string;
  scopeStandard: string;
  scopeTwice: string;
  descriptionTooLong: string;
  claimName: string;
  claimReserved: string;
  claimTwice: string;
  source: string;
  claimScope: string;
  tooManyScopes: string;
  tooManyClaims: string;
}

/** The form's errors by field path (`scopes.0.name`, `claims.2.source`...), as @mantine/form keeps them. */
export function validateProviderSettingsForm(v: ProviderSettingsFormValues, m: ProviderSettingsFormMessages): Record<string, string> {
  const o = providerSettingsUpdateOptions(v);
  const errors: Record<string, string> = {};
  if (o.scopes.length > MAX_PROJECT_SCOPES) errors.scopes = m.tooManyScopes;
  if (o.claims.length > MAX_CLAIM_MAPPINGS) errors.claims = m.tooManyClaims;
  const seenScopes = new Set<string>();
  o.scopes.forEach((s, i) => {
    const at = `scopes.${i}`;
    if (!s.name) errors[`${at}.name`] = m.required;
    else if (!SCOPE_TOKEN.test(s.name) || s.name.length > 100) errors[`${at}.name`] = m.scopeToken;
    else if ((STANDARD_SCOPES as readonly string[]).includes(s.name)) errors[`${at}.name`] = m.scopeStandard;
    else if (seenScopes.has(s.name)) errors[`${at}.name`] = m.scopeTwice;
    seenScopes.add(s.name);
    if (!s.description) errors[`${at}.description`] = m.required;
    else if (s.description.length > MAX_SCOPE_DESCRIPTION) errors[`${at}.description`] = m.descriptionTooLong;
  });
  const releasing = new Set<string>([...CLAIM_RELEASING_STANDARD_SCOPES, ...seenScopes]);
  const seenClaims = new Set<string>();
  o.claims.forEach((c, i) => {
    const at = `claims.${i}`;
    if (!c.claim) errors[`${at}.claim`] = m.required;
    else if (!CLAIM_NAME.test(c.claim) || c.claim.length > 100) errors[`${at}.claim`] = m.claimName;
    else if (RESERVED_CLAIMS.includes(c.claim)) errors[`${at}.claim`] = m.claimReserved;
    else if (seenClaims.has(c.claim)) errors[`${at}.claim`] = m.claimTwice;
    seenClaims.add(c.claim);
    if (!CLAIM_SOURCE.test(c.source) || c.source.length > 300) errors[`${at}.source`] = m.source;
    if (!releasing.has(c.scope)) errors[`${at}.scope`] = m.claimScope;
  });
  return errors;
}

/** The scopes a client may be allowed: the standard ones, then the project's own. */
export function clientScopeChoices(standard: readonly string[], settings: OAuthProviderSettings): string[] {
  return [...standard, ...settings.scopes.map((s) => s.name)];
}
