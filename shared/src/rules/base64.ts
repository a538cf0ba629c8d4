// Base64 helpers on atob/btoa (available in browsers, Bun and Node >= 16).

/** Standard alphabet, length a multiple of 4, padding only as the final `=` or `==`. The empty string is valid. */
export const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)?$/;

/** The `totp_secret_base64` rule ("is not valid base64"). */
export function isBase64(value: string): boolean {
  return BASE64_PATTERN.test(value);
}

function binaryToBytes(binary: string): Uint8Array {
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBinary(bytes: Uint8Array): string {
  let binary = '';
  // Chunked to keep the argument list of fromCharCode small.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return binary;
}

function toBytes(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? new TextEncoder().encode(data) : data;
}

/** Throws on anything that is not valid standard base64 (see isBase64). */
export function base64ToBytes(value: string): Uint8Array {
  if (!isBase64(value)) throw new Error('Invalid base64 string');
  return binaryToBytes(atob(value));
}

/** Standard base64 with padding; a string is encoded as UTF-8. */
export function bytesToBase64(data: Uint8Array | string): string {
  return btoa(bytesToBinary(toBytes(data)));
}

/** base64url without padding (RFC 4648 §5), as used by PKCE, JWTs and WebAuthn; a string is encoded as UTF-8. */
export function base64UrlEncode(data: Uint8Array | string): string {
  return bytesToBase64(data).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Accepts base64url with or without padding; throws on characters outside the alphabet or an impossible length. */
export function base64UrlDecode(value: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(value)) throw new Error('Invalid base64url string');
  const unpadded = value.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) throw new Error('Invalid base64url string');
  const standard = unpadded.replace(/-/g, '+').replace(/_/g, '/');
  return binaryToBytes(atob(standard + '='.repeat((4 - (standard.length % 4)) % 4)));
}

export function base64UrlDecodeToString(value: string): string {
  return new TextDecoder().decode(base64UrlDecode(value));
}
