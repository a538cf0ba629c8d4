// Shows an error from the service under the form field it concerns (lib/known-error-fields.ts), in the catalogue's
// words with its code (components/error-message.tsx).
import type { ReactNode } from 'react';
import { errorField, type FieldRule } from '../lib/known-error-fields';
import { ErrorMessage } from './error-message';

export function showFieldError(form: { setFieldError(path: string, error: ReactNode): void }, error: unknown, fallbackField: string, rules: readonly FieldRule[] = []): void {
  form.setFieldError(errorField(error, rules) ?? fallbackField, <ErrorMessage error={error} />);
}
