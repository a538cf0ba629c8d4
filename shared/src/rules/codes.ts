// Random codes, keys and hashes (protocol-auth §2.4, §4). Web Crypto only, so this runs in browsers, Bun and Node.

/** Crockford base32 digits, lowercase: no i, l, o, u. */
export const CROCKFORD_BASE32_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** Length of refresh tokens, verification codes, CLI codes, nonces and the random part of API keys. */
export const SECURE_CODE_LENGTH = 45;
/** A verification code = 6-char OTP prefix + 39-char nonce (protocol-auth §4.3, §5.1). */
export const OTP_LENGTH = 6;
export const CODE_NONCE_LENGTH = SECURE_CODE_LENGTH - OTP_LENGTH;
export const SECURE_CODE_PATTERN = /^[0-9a-hjkmnp-tv-z]{45}$/;

export type ApiKeyPrefix = 'pck' | 'ssk' | 'sak';

export function randomBytes(count: number): Uint8Array {
  const bytes = new Uint8Array(count);
  // getRandomValues is limited to 65536 bytes per call.
  for (let offset = 0; offset < count; offset += 65536) {
    crypto.getRandomValues(bytes.subarray(offset, Math.min(count, offset + 65536)));
  }
  return bytes;
}

/** Crockford base32 (lowercase, no padding), most significant bit first; the last digit is zero-padded. */
export function encodeCrockfordBase32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += CROCKFORD_BASE32_ALPHABET[(buffer >> bits) & 31];
    }
  }
  if (bits > 0) out += CROCKFORD_BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/**
 * 45 lowercase Crockford base32 characters (225 random bits, i.e. at least the 224 the protocol asks for).
 * Every character carries 5 fresh bits, unlike the reference that keeps the tail of a longer encoding.
 */
export function generateSecureCode(): string {
  // 29 bytes = 232 bits; the first 225 are used.
  return encodeCrockfordBase32(randomBytes(29)).slice(0, SECURE_CODE_LENGTH);
}

export function isSecureCode(value: string): boolean {
  return SECURE_CODE_PATTERN.test(value);
}

/** `pck_` / `ssk_` / `sak_` + 45 base32 characters (protocol-resources §11.1). */
export function generateApiKey(prefix: ApiKeyPrefix): string {
  return `${prefix}_${generateSecureCode()}`;
}

/** The OTP shown in magic-link emails is the first 6 characters upper-cased; the nonce is the last 39. */
export function splitOtp(code: string): { otp: string; nonce: string } {
  return { otp: code.slice(0, OTP_LENGTH).toUpperCase(), nonce: codeNonce(code) };
}

/** Inverse of splitOtp: what a user types (OTP, any case) plus the nonce gives the stored lowercase code. */
export function joinOtp(otp: string, nonce: string): string {
  return (otp + nonce).toLowerCase();
}

/** Last 39 characters, lowercased: codes sharing it share the attempt counter (protocol-auth §4.3 step 4). */
export function codeNonce(code: string): string {
  return code.slice(-CODE_NONCE_LENGTH).toLowerCase();
}

export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** Lowercase hex of `bytes` random bytes; OAuth authorization codes use 32 bytes (64 hex chars). */
export function generateHexCode(bytes = 32): string {
  return bytesToHex(randomBytes(bytes));
}

export async function sha256Bytes(data: string | Uint8Array): Promise<Uint8Array> {
  const input = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return new Uint8Array(await crypto.subtle.digest('SHA-256', input as Uint8Array<ArrayBuffer>));
}

/** Lowercase hex SHA-256 of the UTF-8 text: how random tokens, codes and keys are stored at rest. */
export async function sha256Hex(text: string): Promise<string> {
  return bytesToHex(await sha256Bytes(text));
}

/** Compares without an early exit, so the time depends only on the lengths, not on where the strings differ. */
export function timingSafeEqualStrings(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    diff |= (a.charCodeAt(i % (a.length || 1)) | 0) ^ (b.charCodeAt(i % (b.length || 1)) | 0);
  }
  return diff === 0;
}
