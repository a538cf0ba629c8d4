// Secrets that must be read back (a CLI's refresh token until it is collected, OAuth provider tokens) are stored
// encrypted with AES-256-GCM under a key derived from the service secret and a purpose string, so a key for one
// purpose never decrypts data of another. Format: "v1.<iv>.<ciphertext>.<tag>" (base64url parts).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveSubkey } from './keys';

const VERSION = 'v1';

function keyFor(secret: string, purpose: string): Buffer {
  return deriveSubkey(secret, `aes-256-gcm:${purpose}`);
}

export function encryptString(secret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, purpose), iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

let previousSecrets: readonly string[] = [];

/**
 * The server secrets used before the current one (GATEHOUSE_SERVER_SECRET_PREVIOUS), set once at start-up: a value
 * one of them encrypted still decrypts, until the re-seal pass (security/reseal.ts) has encrypted it anew.
 */
export function usePreviousSecrets(list: readonly string[]): void {
  previousSecrets = [...list];
}

/**
 * Decrypts a value from `encryptString` under `secret`, else under a previous secret; throws if it was tampered with
 * or encrypted for another purpose or under no secret known.
 */
export function decryptString(secret: string, purpose: string, encrypted: string): string {
  try {
    return decryptWith(secret, purpose, encrypted);
  } catch (err) {
    for (const previous of previousSecrets) {
      if (previous === secret) continue;
      try { return decryptWith(previous, purpose, encrypted); } catch { /* the next one */ }
    }
    throw err;
  }
}

/** Whether `secret` (the current one) encrypted the value: false means a previous secret did, or none. */
export function encryptedUnder(secret: string, purpose: string, encrypted: string): boolean {
  try { decryptWith(secret, purpose, encrypted); return true; } catch { return false; }
}

function decryptWith(secret: string, purpose: string, encrypted: string): string {
  const [version, iv, body, tag] = encrypted.split('.');
  if (version !== VERSION || !iv || body === undefined || !tag) throw new Error('Unrecognised encrypted value');
  // A fixed tag length: GCM would otherwise accept truncated tags.
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, purpose), Buffer.from(iv, 'base64url'), { authTagLength: 16 });
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
