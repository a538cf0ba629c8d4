// Field rules of the settings forms (client-library §7.3, §7.7, §7.8), built on shared/'s rules (the ones the
// service applies), returning catalogue problems like lib/validation.ts.
import { isStrictSignInEmail, isValidEmail } from '@gatehouse/shared/rules/email';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@gatehouse/shared/rules/password';
import { DISPLAY_NAME_MAX_LENGTH, isDisplayNameTooLong } from '@gatehouse/shared/rules/names';
import type { Problem, Rule } from './validation';

export const oldPasswordRule: Rule = (value) => (value ? null : { key: 'settings.password.oldRequired' });

export const settingsNewPasswordRule: Rule = (value): Problem | null => {
  if (!value) return { key: 'settings.password.newRequired' };
  if (value.length < PASSWORD_MIN_LENGTH) return { key: 'settings.password.tooShort', values: { min: PASSWORD_MIN_LENGTH } };
  if (value.length > PASSWORD_MAX_LENGTH) return { key: 'settings.password.tooLong', values: { max: PASSWORD_MAX_LENGTH } };
  return null;
};

export function settingsRepeatPasswordRule(password: string): Rule {
  return (value) => {
    if (!value) return { key: 'settings.password.repeatRequired' };
    if (value !== password) return { key: 'settings.password.mismatch' };
    return null;
  };
}

export const inviteEmailRule: Rule = (value) => {
  if (!value.trim()) return { key: 'settings.team.inviteRequired' };
  if (!isValidEmail(value.trim()) || !isStrictSignInEmail(value.trim())) return { key: 'settings.team.inviteInvalid' };
  return null;
};

export const teamNameRule: Rule = (value) => {
  if (!value.trim()) return { key: 'settings.createTeam.required' };
  if (isDisplayNameTooLong(value.trim())) return { key: 'settings.name.tooLong', values: { max: DISPLAY_NAME_MAX_LENGTH } };
  return null;
};

export const apiKeyDescriptionRule: Rule = (value) => (value.trim() ? null : { key: 'settings.apiKeys.descriptionRequired' });

/** What an MFA code field keeps of what is typed or pasted: the digits, at most six. */
export function totpDigits(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6);
}

export const totpCodeRule: Rule = (value) => (/^\d{6}$/.test(value) ? null : { key: 'settings.mfa.sixDigits' });
