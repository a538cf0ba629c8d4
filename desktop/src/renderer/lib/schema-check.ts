// Checks a request body against the same TypeBox schema the service validates it with (shared/src/schemas),
// and turns the problems into form errors keyed by the form's field names.
import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { isValidEmail } from '@gatehouse/shared/rules/email';
import { isValidUrl } from '@gatehouse/shared/rules/urls';

// The service judges string formats by shared's rules (service/src/http/validate.ts), not by TypeBox's format
// registry. The registry is global to the process and others fill it too (Elysia registers its own `url`, which
// refuses http://127.0.0.1:8080/...), so the check below puts shared's rules in place for its own duration and then
// restores what was there: the same answer as the service's, whatever else this process loaded first.
const SHARED_FORMATS: Record<string, (value: string) => boolean> = { email: isValidEmail, url: isValidUrl };

export interface SchemaProblem {
  /** JSON pointer of the offending value in the body, e.g. "/config/email_config/port". */
  path: string;
  message: string;
}

export function schemaProblems(schema: TSchema, body: unknown): SchemaProblem[] {
  const before = Object.keys(SHARED_FORMATS).map((name) => [name, FormatRegistry.Get(name)] as const);
  for (const [name, check] of Object.entries(SHARED_FORMATS)) FormatRegistry.Set(name, check);
  try {
    return [...Value.Errors(schema, body)].map((e) => ({ path: e.path, message: (e.schema as any).patternMessage ?? e.message }));
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
    out[field] ??= p.message;
  }
  return out;
}
