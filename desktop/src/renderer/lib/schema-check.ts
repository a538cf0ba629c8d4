// Checks a request body against the TypeBox schema the service validates it with (shared/src/schemas) and words each
// problem with the console's catalogue: the kind of problem (too long, not an email address, a pattern of the schema,
// a number out of range...) chooses the text, never TypeBox's English. Field rules of shared/src/rules (passwords,
// permission ids, URLs, production mode) are worded in lib/field-rules.ts.
import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import { isStrictSignInEmail, isValidEmail } from '@gatehouse/shared/rules/email';
import { isBase64 } from '@gatehouse/shared/rules/base64';
import { isUuid } from '@gatehouse/shared/rules/uuid';
import { isValidUrl } from '@gatehouse/shared/rules/urls';
import { t, type MessageKey } from '../messages';

// The service judges string formats by shared's rules (service/src/http/validate.ts), not by TypeBox's format
// registry. The registry is global to the process and others fill it too (Elysia registers its own `url`, which
// refuses http://127.0.0.1:8080/...), so the check below puts shared's rules in place for its own duration and then
// restores what was there: the same answer as the service's, whatever else this process loaded first.
// Every format the service knows is here: one missing would fail every value (a valid team id was refused so).
const SHARED_FORMATS: Record<string, (value: string) => boolean> = {
  email: isValidEmail, 'sign-in-email': isStrictSignInEmail, url: isValidUrl, uuid: isUuid, base64: isBase64,
};

/** A catalogue text to show for a field, by key and the values of its placeholders. */
export type Problem = { key: MessageKey; values?: Record<string, string | number> };

export function problemText(problem: Problem): string {
  return t(problem.key, problem.values);
}

/** The text of each string format the schemas use. */
export const FORMAT_PROBLEMS: Record<string, MessageKey> = {
  email: 'common.invalidEmail',
  'sign-in-email': 'common.invalidEmail',
  url: 'validation.url',
  uuid: 'validation.invalid',
  base64: 'validation.invalid',
};

/** The text of each `pattern` the schemas use (by the pattern's source). */
export const PATTERN_PROBLEMS: Record<string, MessageKey> = {
  '^https?://': 'validation.httpUrl',
  '^/': 'validation.handlerPath',
  '^[^@\\s]+@[^@\\s]+$': 'common.invalidEmail',
};

/** What a TypeBox error means for the person filling the form. */
export function problemOf(error: ValueError): Problem {
  // A nullable field (`T | null`) fails as a union: its problem is the one of the variant that is not null.
  if (error.type === ValueErrorType.Union) {
    const inner = error.errors.flatMap((variant) => [...variant]).find((e) => e.type !== ValueErrorType.Null);
    if (inner) return problemOf(inner);
  }
  const schema = error.schema as { maxLength?: number; minLength?: number; format?: string; pattern?: string; minimum?: number; maximum?: number };
  switch (error.type) {
    case ValueErrorType.StringMaxLength:
      return { key: 'validation.tooLong', values: { max: schema.maxLength ?? 0 } };
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1 ? { key: 'common.required' } : { key: 'validation.tooShort', values: { min: schema.minLength ?? 0 } };
    case ValueErrorType.StringFormat:
    case ValueErrorType.StringFormatUnknown:
      return { key: FORMAT_PROBLEMS[schema.format ?? ''] ?? 'validation.invalid' };
    case ValueErrorType.StringPattern:
      return { key: PATTERN_PROBLEMS[schema.pattern ?? ''] ?? 'validation.invalid' };
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.IntegerMaximum:
      return { key: 'validation.range', values: { min: schema.minimum ?? '', max: schema.maximum ?? '' } };
    case ValueErrorType.Integer:
      return { key: 'validation.wholeNumber' };
    default:
      return { key: 'validation.invalid' };
  }
}

export interface SchemaProblem {
  /** JSON pointer of the offending value in the body, e.g. "/config/email_config/port". */
  path: string;
  problem: Problem;
  /** The catalogue's text for it. */
  text: string;
}

export function schemaProblems(schema: TSchema, body: unknown): SchemaProblem[] {
  const before = Object.keys(SHARED_FORMATS).map((name) => [name, FormatRegistry.Get(name)] as const);
  for (const [name, check] of Object.entries(SHARED_FORMATS)) FormatRegistry.Set(name, check);
  try {
    return [...Value.Errors(schema, body)].map((e) => {
      const problem = problemOf(e);
      return { path: e.path, problem, text: problemText(problem) };
    });
  } finally {
    for (const [name, check] of before) if (check) FormatRegistry.Set(name, check); else FormatRegistry.Delete(name);
  }
}

/** Form errors from schema problems: `fields` maps a body path (exact or prefix) to the form field. */
export function formErrors(problems: SchemaProblem[], fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of problems) {
    const match = Object.keys(fields).find((path) => p.path === path || p.path.startsWith(path + '/'));
    const field = match ? fields[match]! : '_form';
    out[field] ??= p.text;
  }
  return out;
}
