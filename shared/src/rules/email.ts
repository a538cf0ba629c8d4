// Email checks (protocol-auth §1.6, protocol-resources §1.2). Emails are never normalised (no lower-casing).

/** yup 1.4's `string().email()` pattern (the WHATWG HTML `input[type=email]` rule). */
export const YUP_EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+\/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/**
 * Extra rule of "sign-in email" fields (sign-up, OTP send, legacy verification send): does not start with `.`,
 * has `@`, has a `.` somewhere after the `@`, and the last dot-separated label has at least 2 characters.
 */
export const STRICT_SIGN_IN_EMAIL_PATTERN = /^[^.][^@]*@.*\.[^.]{2,}$/;

/** Any `x@y`: one `@` with something non-blank on each side (server-set `primary_email`, e.g. `a@gmai`). */
export const LENIENT_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

/**
 * yup's email check. yup skips empty strings (they are handled by "required"/"must not be empty" rules); as a
 * standalone predicate the empty string is not an email, so this returns false for it.
 */
export function isValidEmail(value: string): boolean {
  return YUP_EMAIL_PATTERN.test(value);
}

export function isStrictSignInEmail(value: string): boolean {
  return isValidEmail(value) && STRICT_SIGN_IN_EMAIL_PATTERN.test(value);
}

export function isLenientEmail(value: string): boolean {
  return LENIENT_EMAIL_PATTERN.test(value);
}
