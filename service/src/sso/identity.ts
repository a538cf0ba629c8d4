// Who the IdP says signed in, read from a SAML assertion's attributes or an OIDC ID token's claims, by the
// connection's attribute mapping or else the names IdPs commonly use (Okta, Entra ID, Google Workspace, Keycloak,
// OneLogin). Pure.
import type { AttributeMapping } from './settings';

export interface SsoIdentity { subject: string; email: string | null; displayName: string | null; groups: string[] }

const EMAIL_NAMES = ['email', 'mail', 'emailaddress', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3', 'user.email'];
const NAME_NAMES = ['displayname', 'name', 'http://schemas.microsoft.com/identity/claims/displayname', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name', 'urn:oid:2.16.840.1.113730.3.1.241', 'cn'];
const GIVEN_NAMES = ['givenname', 'firstname', 'given_name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname', 'urn:oid:2.5.4.42'];
const FAMILY_NAMES = ['surname', 'lastname', 'family_name', 'sn', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname', 'urn:oid:2.5.4.4'];
const GROUP_NAMES = ['groups', 'group', 'memberof', 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups', 'roles'];

function lookup(values: Map<string, unknown>, mapped: string | undefined, names: string[]): unknown {
  if (mapped) return values.get(mapped.toLowerCase());
  for (const name of names) if (values.has(name)) return values.get(name);
  return undefined;
}

const firstString = (v: unknown): string | null => {
  const s = Array.isArray(v) ? v.find((x) => typeof x === 'string') : v;
  return typeof s === 'string' && s.trim() !== '' ? s.trim() : null;
};
const strings = (v: unknown): string[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).filter((x): x is string => typeof x === 'string' && x !== '');

/** `values`: the attributes (SAML) or claims (OIDC), any case. `subject`: the NameID or `sub`. */
export function readIdentity(subject: string, raw: Record<string, unknown>, mapping: AttributeMapping, fallbackEmail: string | null): SsoIdentity {
  const values = new Map(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), v]));
  const email = firstString(lookup(values, mapping.email, EMAIL_NAMES)) ?? fallbackEmail;
  const given = firstString(lookup(values, undefined, GIVEN_NAMES));
  const family = firstString(lookup(values, undefined, FAMILY_NAMES));
  const displayName = firstString(lookup(values, mapping.display_name, NAME_NAMES)) ?? ([given, family].filter(Boolean).join(' ') || null);
  return { subject, email: email?.toLowerCase() ?? null, displayName, groups: strings(lookup(values, mapping.groups, GROUP_NAMES)) };
}
