// What counts as an email domain a team can claim: a DNS name of two or more labels (letters, digits and hyphens,
// international names in their punycode form), written without scheme, port, path or trailing dot. Pure.

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The domain in the form it is stored and compared in (lower case, punycode, no trailing dot), or null. */
export function normalizeEmailDomain(input: string): string | null {
  const text = input.trim().replace(/\.$/, '');
  if (text === '' || /[\s/:@?#\\]/.test(text)) return null;
  let ascii: string;
  try {
    ascii = new URL(`http://${text}`).hostname; // lower-cases and turns international names into punycode
  } catch {
    return null;
  }
  if (ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return null; // an IPv4 address, not a name
  return ascii;
}

/** The domain part of an email address, normalized; null when it has none. */
export function emailDomainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at < 0 ? null : normalizeEmailDomain(email.slice(at + 1));
}

export const CHALLENGE_PREFIX = 'gatehouse-domain-verification=';

/** Where the proof lives: a TXT record of this name, carrying `gatehouse-domain-verification={challenge}`. */
export function challengeRecordName(domain: string): string {
  return `_gatehouse-challenge.${domain}`;
}
