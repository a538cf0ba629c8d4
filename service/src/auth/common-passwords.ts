// Breached and very common passwords are refused (ASVS 2.1.7), offline: the list zxcvbn-ts ships
// (@zxcvbn-ts/language-common, about 49,000 passwords from breach corpora; no network call). Compared after NFKC
// normalisation and case-insensitively, so "PASSWORD1" and a full-width "ｐａｓｓｗｏｒｄ1" are refused too.
import { KnownErrors } from '@gatehouse/shared/known-errors';

// Loaded on first use (decompressing the list takes a few hundred ms: not on the start-up path).
let common: Promise<Set<string>> | undefined;
const commonPasswords = () => (common ??= import('@zxcvbn-ts/language-common')
  .then(({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()))));

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(normalizePassword(password).toLowerCase());
}

/** Throws PASSWORD_REQUIREMENTS_NOT_MET for a common password. */
export async function assertNotCommonPassword(password: string): Promise<void> {
  if (await isCommonPassword(password)) throw new KnownErrors.PasswordRequirementsNotMet();
}

/**
 * The form passwords are hashed and verified in (ASVS 2.1.4): NFKC, so the same password typed on another
 * keyboard or system (composed or decomposed accents, full-width forms) matches.
 */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}
