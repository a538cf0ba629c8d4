// Validates request parts against TypeBox (JSON Schema) definitions and produces the protocol's SCHEMA_ERROR
// lines ("body.password must be at most 70 characters", "body contains unknown properties: x"), which follow
// yup's wording. Also coerces query-string values to the declared number/boolean types.
import { Kind, OptionalKind, type TSchema } from '@sinclair/typebox';
import { isValidEmail, isStrictSignInEmail } from '@gatehouse/shared/rules/email';
import { urlProblems } from '@gatehouse/shared/rules/urls';
import { isBase64 } from '@gatehouse/shared/rules/base64';
import { isUuid } from '@gatehouse/shared/rules/uuid';
import { hasUnsafeNameCharacters, reservedJsonKeyPath, RESERVED_JSON_KEY_PROBLEM, UNSAFE_NAME_PROBLEM } from '@gatehouse/shared/rules/input-safety';

type Schema = TSchema & Record<string, any>;

export interface ValidationResult<T = unknown> { value: T; problems: string[] }

/** Checks a string against a `format` of ours; returns problem suffixes ("must be a valid UUID"). */
function formatProblems(format: string, value: string): string[] {
  switch (format) {
    case 'uuid': return isUuid(value) ? [] : ['must be a valid UUID'];
    case 'email': return isValidEmail(value) ? [] : ['must be a valid email'];
    case 'sign-in-email': return isStrictSignInEmail(value) ? [] : ['must be a valid email'];
    case 'url': return urlProblems(value);
    case 'base64': return isBase64(value) ? [] : ['is not valid base64'];
    default: return [];
  }
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function printValue(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  try { return JSON.stringify(value) ?? String(value); } catch { return String(value); }
}

function typeError(path: string, type: string, value: unknown): string {
  return `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;
}

function literalValues(schema: Schema): unknown[] | undefined {
  if (schema.const !== undefined) return [schema.const];
  if (Array.isArray(schema.anyOf) && schema.anyOf.every((s: Schema) => s.const !== undefined)) {
    return schema.anyOf.map((s: Schema) => s.const);
  }
  return undefined;
}

function coerce(schema: Schema, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const type = schema.type;
  if ((type === 'number' || type === 'integer') && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  if (Array.isArray(schema.anyOf)) {
    for (const branch of schema.anyOf as Schema[]) {
      const c = coerce(branch, value);
      if (c !== value) return c;
    }
  }
  return value;
}

// Postgres cannot store U+0000 in text or jsonb: such input is a schema error, never a failed query.
const NUL = '\u0000';
const NUL_PROBLEM = 'must not contain null characters';

/** Whether any string or key inside a JSON value contains U+0000 (iterative: the depth of JSON is untrusted). */
function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') { if (v.includes(NUL)) return true; }
    else if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) { if (k.includes(NUL)) return true; stack.push(x); }
    }
  }
  return false;
}

function check(schema: Schema, value: unknown, path: string, out: string[], coerceStrings: boolean): unknown {
  if (coerceStrings) value = coerce(schema, value);
  const kind = schema[Kind];
  if (kind === 'Unknown' || kind === 'Any') {
    if (containsNul(value)) out.push(`${path} ${NUL_PROBLEM}`);
    if (schema.refuseReservedKeys) {
      const keyPath = reservedJsonKeyPath(value);
      if (keyPath !== null) out.push(`${path}${keyPath} ${RESERVED_JSON_KEY_PROBLEM}`);
    }
    return value;
  }

  const literals = literalValues(schema);
  if (literals) {
    if (!literals.includes(value)) out.push(`${path} must be one of the following values: ${literals.join(', ')}`);
    return value;
  }

  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as Schema[];
    if (value === null) {
      if (!branches.some((b) => b.type === 'null')) out.push(`${path} cannot be null`);
      return value;
    }
    const candidates = branches.filter((b) => b.type !== 'null');
    let firstProblems: string[] | undefined;
    for (const branch of candidates) {
      const problems: string[] = [];
      const v = check(branch, value, path, problems, coerceStrings);
      if (problems.length === 0) return v;
      firstProblems ??= problems;
    }
    out.push(...(firstProblems ?? []));
    return value;
  }

  if (value === null) {
    if (schema.type !== 'null') out.push(`${path} cannot be null`);
    return value;
  }

  switch (schema.type) {
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) { out.push(typeError(path, 'object', value)); return value; }
      const obj = value as Record<string, unknown>;
      const props: Record<string, Schema> = schema.properties ?? {};
      const required = new Set<string>(schema.required ?? []);
      if (schema.additionalProperties === false) {
        const unknown = Object.keys(obj).filter((k) => !(k in props));
        if (unknown.length) out.push(`${path} contains unknown properties: ${unknown.join(', ')}`);
      } else if (Object.entries(obj).some(([k, v]) => !(k in props) && containsNul([k, v]))) {
        // Open objects (the token endpoint) still hand their extra fields to code that may query with them.
        out.push(`${path} ${NUL_PROBLEM}`);
      }
      const result: Record<string, unknown> = schema.additionalProperties === false ? {} : { ...obj };
      for (const [key, propSchema] of Object.entries(props)) {
        const v = obj[key];
        if (v === undefined) {
          if (required.has(key) && !propSchema[OptionalKind]) out.push(`${path}.${key} must be defined`);
          continue;
        }
        result[key] = check(propSchema, v, `${path}.${key}`, out, coerceStrings);
      }
      return result;
    }
    case 'array': {
      if (!Array.isArray(value)) { out.push(typeError(path, 'array', value)); return value; }
      if (schema.maxItems !== undefined && value.length > schema.maxItems) out.push(`${path} field must have less than or equal to ${schema.maxItems} items`);
      return value.map((item, i) => check(schema.items, item, `${path}[${i}]`, out, coerceStrings));
    }
    case 'string': {
      if (typeof value !== 'string') { out.push(typeError(path, 'string', value)); return value; }
      if (value.includes(NUL)) { out.push(`${path} ${NUL_PROBLEM}`); return value; }
      if (schema.safeText && hasUnsafeNameCharacters(value)) out.push(`${path} ${UNSAFE_NAME_PROBLEM}`);
      const { minLength, maxLength } = schema;
      if (minLength !== undefined && minLength === maxLength && value.length !== minLength) {
        out.push(`${path} must be exactly ${minLength} characters`);
      } else {
        if (minLength !== undefined && value.length < minLength) {
          // "must not be empty" says it all: an empty string gets no pattern/format lines on top (as in yup).
          if (schema.emptyMessage && minLength === 1) { out.push(`${path} ${schema.emptyMessage}`); return value; }
          out.push(`${path} must be at least ${minLength} characters`);
        }
        if (maxLength !== undefined && value.length > maxLength) out.push(`${path} must be at most ${maxLength} characters`);
      }
      if (schema.pattern && !new RegExp(schema.pattern).test(value)) {
        out.push(schema.patternMessage ? `${path} ${schema.patternMessage}` : `${path} must match the following: "/${schema.pattern}/"`);
      }
      // yup's email() lets "" through; every other format (url, uuid, base64) judges the empty string too.
      if (schema.format && !(value === '' && schema.format === 'email')) for (const p of formatProblems(schema.format, value)) out.push(`${path} ${p}`);
      return value;
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || Number.isNaN(value)) { out.push(typeError(path, 'number', value)); return value; }
      if (schema.type === 'integer' && !Number.isInteger(value)) out.push(`${path} must be an integer`);
      if (schema.minimum !== undefined && value < schema.minimum) out.push(`${path} must be greater than or equal to ${schema.minimum}`);
      if (schema.maximum !== undefined && value > schema.maximum) out.push(`${path} must be less than or equal to ${schema.maximum}`);
      return value;
    }
    case 'boolean':
      if (typeof value !== 'boolean') out.push(typeError(path, 'boolean', value));
      return value;
    case 'null':
      out.push(`${path} must be null`);
      return value;
    default:
      return value;
  }
}

/** Validates `value` (a request part named `root`, e.g. "body") and returns the cleaned value plus problem lines. */
export function validatePart<T>(schema: TSchema, value: unknown, root: string, opts: { coerceStrings?: boolean } = {}): ValidationResult<T> {
  const problems: string[] = [];
  if (value === undefined) {
    const s = schema as Schema;
    const optional = s[OptionalKind] || s[Kind] === 'Unknown' || s[Kind] === 'Any' || s.type === 'undefined';
    if (!optional) problems.push(`${root} must be defined`);
    return { value: value as T, problems };
  }
  const cleaned = check(schema as Schema, value, root, problems, opts.coerceStrings ?? false);
  return { value: cleaned as T, problems };
}
