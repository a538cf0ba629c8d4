// Checks a request body against the same TypeBox schema the service validates it with (shared/src/schemas),
// and turns the problems into form errors keyed by the form's field names.
import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { isValidEmail } from '@gatehouse/shared/rules/email';

// The service's framework registers TypeBox's string formats; a bare TypeBox here knows none of them.
if (!FormatRegistry.Has('email')) FormatRegistry.Set('email', isValidEmail);

export interface SchemaProblem {
  /** JSON pointer of the offending value in the body, e.g. "/config/email_config/port". */
  path: string;
  message: string;
}

export function schemaProblems(schema: TSchema, body: unknown): SchemaProblem[] {
  return [...Value.Errors(schema, body)].map((e) => ({ path: e.path, message: (e.schema as any).patternMessage ?? e.message }));
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
