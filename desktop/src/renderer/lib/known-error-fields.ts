// Puts an error from the service next to the form field it concerns: by known-error code, or for SCHEMA_ERROR by
// the request path its message names (e.g. "body.config.email_config.port").
import { KnownError } from '@gatehouse/shared/known-errors';

export interface FieldRule {
  field: string;
  codes?: readonly string[];
  /** Matched against a SCHEMA_ERROR message. */
  schemaPath?: RegExp;
}

export interface PlacedError {
  /** The form field to show it under, or null for the form's general error. */
  field: string | null;
  message: string;
}

export function placeError(error: unknown, rules: readonly FieldRule[]): PlacedError {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof KnownError)) return { field: null, message };
  for (const rule of rules) {
    if (rule.codes?.includes(error.errorCode)) return { field: rule.field, message };
    if (error.errorCode === 'SCHEMA_ERROR' && rule.schemaPath?.test(message)) return { field: rule.field, message };
  }
  return { field: null, message };
}
