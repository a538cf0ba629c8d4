// Password length rule (seed §5, §9; protocol-auth §3.1). Strength rules beyond length do not exist at this version.
import { KnownErrors, type KnownError } from '../known-errors';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 70;

/**
 * PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG, or undefined. Length is the JavaScript string length (UTF-16 code
 * units), as in the reference, so an emoji counts as 2.
 */
export function getPasswordError(password: string, opts: { minLength?: number } = {}): KnownError | undefined {
  // A project may ask for more than the protocol's 8 (its security settings' password_min_length), never less.
  const minLength = Math.max(PASSWORD_MIN_LENGTH, opts.minLength ?? PASSWORD_MIN_LENGTH);
  if (password.length < minLength) return new KnownErrors.PasswordTooShort(minLength);
  if (password.length > PASSWORD_MAX_LENGTH) return new KnownErrors.PasswordTooLong(PASSWORD_MAX_LENGTH);
  return undefined;
}
