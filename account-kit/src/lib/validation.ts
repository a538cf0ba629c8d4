// Field rules of the auth forms, built on shared/'s rules (the same ones the service applies), returning the
// catalogue key of the message to show, or null when the value is fine.
import { isStrictSignInEmail, isValidEmail } from '@gatehouse/shared/rules/email';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@gatehouse/shared/rules/password';
import type { MessageKey } from '../messages';

export type Problem = { key: MessageKey; values?: Record<string, number> };
export type Rule = (value: string) => Problem | null;

export const signInEmailRule: Rule = (value) => {
  if (!value.trim()) return { key: 'validation.emailRequired' };
  if (!isValidEmail(value) || !isStrictSignInEmail(value)) return { key: 'validation.emailInvalid' };
  return null;
};

/** A password being chosen: required and within the length rule. */
export const newPasswordRule: Rule = (value): Problem | null => {
  if (!value) return { key: 'validation.passwordRequired' };
  if (value.length < PASSWORD_MIN_LENGTH) return { key: 'validation.passwordTooShort', values: { min: PASSWORD_MIN_LENGTH } };
  if (value.length > PASSWORD_MAX_LENGTH) return { key: 'validation.passwordTooLong', values: { max: PASSWORD_MAX_LENGTH } };
  return null;
};

/** A password being typed to sign in: only required (the service decides the rest). */
export const existingPasswordRule: Rule = (value) => (value ? null : { key: 'validation.passwordRequired' });

export function repeatPasswordRule(password: string): Rule {
  return (value) => {
    if (!value) return { key: 'validation.repeatPasswordRequired' };
    if (value !== password) return { key: 'validation.passwordsDoNotMatch' };
    return null;
  };
}
