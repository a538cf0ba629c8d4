// MFA enrolment (client-library §7.3): a 20-byte secret, its otpauth:// URI (issuer = project name, account =
// primary email or user id, SHA-1, 6 digits, 30 s) and the local check of the code the person types, with
// WebCrypto so the kit needs no TOTP library.

export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
export const TOTP_SECRET_BYTES = 20;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function newTotpSecret(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(TOTP_SECRET_BYTES));
}

export function otpauthUri(secret: Uint8Array, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  // encodeURIComponent, not URLSearchParams: authenticator apps read "+" literally, not as a space.
  const q = `secret=${base32Encode(secret)}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${TOTP_PERIOD_S}`;
  return `otpauth://totp/${label}?${q}`;
}

/** The code of time step `counter` (RFC 4226 HOTP over HMAC-SHA-1). */
export async function hotp(secret: Uint8Array, counter: number): Promise<string> {
  const key = await crypto.subtle.importKey('raw', secret as BufferSource, { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
  const msg = new DataView(new ArrayBuffer(8));
  msg.setUint32(0, Math.floor(counter / 2 ** 32));
  msg.setUint32(4, counter >>> 0);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, msg.buffer));
  const offset = mac[mac.length - 1]! & 0xf;
  const bin = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(bin % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, '0');
}

/**
 * Whether `code` is the current code of `secret`. The step before is accepted too: a code typed in the last
 * seconds of its window would otherwise fail for a person who typed it correctly.
 */
export async function verifyTotp(secret: Uint8Array, code: string, now: number = Date.now()): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const step = Math.floor(now / 1000 / TOTP_PERIOD_S);
  for (const counter of [step, step - 1]) if ((await hotp(secret, counter)) === code) return true;
  return false;
}
