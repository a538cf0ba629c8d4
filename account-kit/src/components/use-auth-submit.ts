// Runs an auth call for a form: shows the known error's text next to its field (or above the form), keeps the
// submit button busy meanwhile, and moves focus to the field in error.
import { useState } from 'react';
import type { UseFormReturnType } from '@mantine/form';
import { useGatehouseApp, useTranslate } from '../context';
import { describeAuthError, ssoRequiredEmail, type ErrorField } from '../lib/error-messages';

export function useAuthSubmit<V extends Record<string, unknown>>(form: UseFormReturnType<V>, fieldOf: Partial<Record<ErrorField, keyof V & string>>) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);

  const showError = (err: unknown) => {
    // The address's organization requires SSO: say so, and go there (the browser leaves the page).
    const ssoEmail = ssoRequiredEmail(err);
    if (ssoEmail) void app.signInWithSso({ email: ssoEmail });
    const { key, field, values } = describeAuthError(err);
    const path = fieldOf[field];
    if (path) {
      form.setFieldError(path, t(key, values));
      queueMicrotask(() => document.querySelector<HTMLElement>(`[data-path="${path}"]`)?.focus());
    } else {
      setFormError(t(key, values));
    }
  };

  /** `run` returns an error to show (a Result's error), or nothing on success. */
  const submit = (run: (values: V) => Promise<unknown>) =>
    form.onSubmit(async (values) => {
      setBusy(true);
      setFormError(null);
      try {
        const error = await run(values);
        if (error) showError(error);
      } catch (err) {
        showError(err);
      } finally {
        setBusy(false);
      }
    }, (errors) => {
      const first = Object.keys(errors)[0];
      if (first) document.querySelector<HTMLElement>(`[data-path="${first}"]`)?.focus();
    });

  return { busy, formError, submit, showError };
}
