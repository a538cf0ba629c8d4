// Which form field an error from the service concerns: by known-error code, or for SCHEMA_ERROR by the request path
// its details name (e.g. "body.config.email_config.port"). The text shown is the catalogue's (lib/error-text.ts).
import { KnownError } from '@gatehouse/shared/known-errors';

export interface FieldRule {
  field: string;
  codes?: readonly string[];
  /** Matched against a SCHEMA_ERROR's details (the request paths it names). */
  schemaPath?: RegExp;
}

/** The form field to show the error under, or null for the form's general error. */
export function errorField(error: unknown, rules: readonly FieldRule[]): string | null {
  if (!(error instanceof KnownError)) return null;
  const schemaDetails = typeof error.details?.message === 'string' ? error.details.message : '';
  for (const rule of rules) {
    if (rule.codes?.includes(error.errorCode)) return rule.field;
    if (error.errorCode === 'SCHEMA_ERROR' && rule.schemaPath?.test(schemaDetails)) return rule.field;
  }
  return null;
}
