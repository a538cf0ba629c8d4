// A SCIM User as Gatehouse keeps it (RFC 7643 §4.1): what POST and PUT bodies carry and what PATCH operations
// (RFC 7644 §3.5.2) change, in the forms Okta and Microsoft Entra ID send. Attributes Gatehouse does not keep
// (title, addresses, the enterprise extension...) are accepted and ignored, so a provider's full profile push does
// not fail. Pure.
import { scimInvalidValue, ScimError } from './scim-error';

export interface ScimName { formatted?: string; givenName?: string; familyName?: string; middleName?: string; honorificPrefix?: string; honorificSuffix?: string }
export interface ScimUserFields {
  userName: string;
  externalId: string | null;
  active: boolean;
  /** As sent (only its string members). */
  name: ScimName | null;
  displayName: string | null;
  /** The work address: the user's primary email. */
  email: string | null;
}

const NAME_PARTS = ['formatted', 'givenName', 'familyName', 'middleName', 'honorificPrefix', 'honorificSuffix'] as const;
const MAX_TEXT = 1000;

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A body's keys, case-insensitively (attribute names are case-insensitive, RFC 7643 §2.1). */
export const lowerKeys = (o: Record<string, unknown>) => new Map(Object.entries(o).map(([k, v]) => [k.toLowerCase(), v]));

function text(value: unknown, attribute: string, opts: { required?: boolean } = {}): string | null {
  if (value === undefined || value === null || value === '') {
    if (opts.required) throw scimInvalidValue(`${attribute} is required.`);
    return null;
  }
  if (typeof value !== 'string') throw scimInvalidValue(`${attribute} must be a string.`);
  if (value.length > MAX_TEXT) throw scimInvalidValue(`${attribute} is longer than ${MAX_TEXT} characters.`);
  return value;
}

/** Entra ID sends booleans as the strings "True" and "False" in PATCH values. */
function bool(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw scimInvalidValue(`${attribute} must be a boolean.`);
}

function name(value: unknown): ScimName | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw scimInvalidValue('name must be an object.');
  const given = lowerKeys(value);
  const out: ScimName = {};
  for (const part of NAME_PARTS) {
    const v = text(given.get(part.toLowerCase()), `name.${part}`);
    if (v !== null) out[part] = v;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** The primary address of an `emails` array: the one marked primary, else the work one, else the first. */
function primaryEmail(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw scimInvalidValue('emails must be an array.');
  const entries = value.map((e) => {
    if (!isObject(e)) throw scimInvalidValue('Each of emails must be an object.');
    const k = lowerKeys(e);
    return { value: text(k.get('value'), 'emails.value'), type: k.get('type'), primary: k.get('primary') };
  }).filter((e) => e.value !== null);
  const chosen = entries.find((e) => e.primary === true || e.primary === 'True' || e.primary === 'true')
    ?? entries.find((e) => typeof e.type === 'string' && e.type.toLowerCase() === 'work') ?? entries[0];
  return chosen?.value ?? null;
}

/** A POST or PUT body: the whole resource (what it leaves out is cleared, as a replace does). */
export function parseUserResource(body: unknown): ScimUserFields {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a SCIM User object.', 'invalidSyntax');
  const k = lowerKeys(body);
  const userName = text(k.get('username'), 'userName', { required: true })!;
  const email = primaryEmail(k.get('emails')) ?? (userName.includes('@') ? userName : null);
  return {
    userName,
    externalId: text(k.get('externalid'), 'externalId'),
    active: k.get('active') === undefined ? true : bool(k.get('active'), 'active'),
    name: name(k.get('name')),
    displayName: text(k.get('displayname'), 'displayName'),
    email,
  };
}

/** The display name Gatehouse shows: displayName, else the formatted name, else the given and family names. */
export function effectiveDisplayName(fields: Pick<ScimUserFields, 'displayName' | 'name'>): string | null {
  if (fields.displayName) return fields.displayName;
  if (fields.name?.formatted) return fields.name.formatted;
  const joined = [fields.name?.givenName, fields.name?.familyName].filter(Boolean).join(' ');
  return joined || null;
}

interface Operation { op: 'add' | 'replace' | 'remove'; path: string | null; value: unknown }

/** The `Operations` of a PatchOp body, ops lower-cased (Entra ID sends "Replace", "Add"). */
export function patchOperations(body: unknown): Operation[] {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a SCIM PatchOp object.', 'invalidSyntax');
  const ops = lowerKeys(body).get('operations');
  if (!Array.isArray(ops) || ops.length === 0) throw new ScimError(400, 'Operations must be a non-empty array.', 'invalidSyntax');
  if (ops.length > 1000) throw new ScimError(400, 'Too many operations in one request.', 'tooMany');
  return ops.map((o) => {
    if (!isObject(o)) throw new ScimError(400, 'Each operation must be an object.', 'invalidSyntax');
    const k = lowerKeys(o);
    const op = typeof k.get('op') === 'string' ? (k.get('op') as string).toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw new ScimError(400, `Unknown operation ${String(k.get('op'))}.`, 'invalidSyntax');
    const path = k.get('path');
    if (path !== undefined && typeof path !== 'string') throw new ScimError(400, 'path must be a string.', 'invalidPath');
    return { op, path: path ? path.trim() : null, value: k.get('value') };
  });
}

const WORK_EMAIL_PATH = /^emails\[\s*type\s+eq\s+"work"\s*\](\.value)?$/i;

/** One attribute set by path (add and replace are the same for single-valued attributes). */
function setAttribute(fields: ScimUserFields, path: string, value: unknown, remove: boolean): ScimUserFields {
  const lower = path.toLowerCase().replace(/^urn:ietf:params:scim:schemas:core:2\.0:user:/, '');
  switch (lower) {
    case 'username':
      if (remove) throw new ScimError(400, 'userName cannot be removed.', 'mutability');
      return { ...fields, userName: text(value, 'userName', { required: true })! };
    case 'externalid': return { ...fields, externalId: remove ? null : text(value, 'externalId') };
    case 'active': return remove ? fields : { ...fields, active: bool(value, 'active') };
    case 'displayname': return { ...fields, displayName: remove ? null : text(value, 'displayName') };
    case 'name': return { ...fields, name: remove ? null : { ...fields.name, ...name(value) } };
    case 'emails': return { ...fields, email: remove ? null : primaryEmail(value) };
  }
  if (lower.startsWith('name.')) {
    const part = NAME_PARTS.find((p) => p.toLowerCase() === lower.slice(5));
    if (!part) return fields;
    const next: ScimName = { ...fields.name };
    if (remove) delete next[part];
    else {
      const v = text(value, `name.${part}`);
      if (v === null) delete next[part]; else next[part] = v;
    }
    return { ...fields, name: Object.keys(next).length > 0 ? next : null };
  }
  if (WORK_EMAIL_PATH.test(path)) {
    if (remove) return { ...fields, email: null };
    // With `.value` the value is the address; without, an object with one.
    const address = isObject(value) ? lowerKeys(value).get('value') : value;
    return { ...fields, email: text(address, 'emails[type eq "work"].value') };
  }
  return fields; // an attribute Gatehouse does not keep
}

/** Applies a PatchOp body to the user's fields. */
export function applyUserPatch(current: ScimUserFields, body: unknown): ScimUserFields {
  let fields = current;
  for (const { op, path, value } of patchOperations(body)) {
    if (path) {
      fields = setAttribute(fields, path, value, op === 'remove');
    } else {
      if (op === 'remove') throw new ScimError(400, 'A remove operation needs a path.', 'noTarget');
      if (!isObject(value)) throw scimInvalidValue('An operation without a path needs an object value.');
      for (const [key, v] of Object.entries(value)) fields = setAttribute(fields, key, v, false);
    }
  }
  return fields;
}
