// Secrets the service must read back in clear to use them (users' TOTP secrets, projects' OAuth client secrets and
// SMTP passwords) are stored sealed: AES-256-GCM under a key derived with HKDF-SHA256 from the server secret and a
// purpose label, so a database dump alone reveals none of them and a value sealed for one purpose never opens as
// another (the purpose is also the additional data).
//
// Format (text): "gh-sealed:v1:<key id>:<iv>:<ciphertext>:<tag>", base64url parts. The version names the algorithm
// and derivation; the key id (derived from the key, not secret) says which server secret sealed it, so a rotation
// can open values of the previous secret(s) while new writes use the current one. Byte columns (bytea) hold the
// UTF-8 bytes of the same text.
//
// Values written before sealing existed are plaintext: they are read as they are and sealed on their next write.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'gh-sealed:';
const VERSION = 'v1';
const SALT = 'gatehouse secrets at rest';

export type SecretPurpose = 'totp-secret' | 'oauth-client-secret' | 'smtp-password' | 'signing-key-seed' | 'oauth-provider-key' | 'oauth-provider-device-code';

interface Key { id: string; secret: string }

/** The current key first, then older ones that may still open stored values. */
let keys: Key[] = [];

function keyId(secret: string): string {
  // A fingerprint of the secret through HKDF with its own label: it identifies the key without helping to guess it.
  return Buffer.from(hkdfSync('sha256', secret, SALT, 'key id', 9)).toString('base64url');
}

/**
 * Called once at start-up with the server secret (and, during a rotation, the secrets used before it): from then
 * on new values are sealed under the first one, stored values open under whichever sealed them.
 */
export function useSecretsAtRestKeys(current: string, previous: string[] = []): void {
  keys = [current, ...previous.filter((s) => s && s !== current)].map((secret) => ({ id: keyId(secret), secret }));
}

function derive(secret: string, purpose: SecretPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, SALT, `aes-256-gcm ${VERSION} ${purpose}`, 32));
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

export function sealSecret(purpose: SecretPurpose, plaintext: string): string {
  const key = keys[0];
  if (!key) throw new Error('Secrets at rest: no server secret configured (useSecretsAtRestKeys was not called)');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derive(key.secret, purpose), iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${PREFIX}${[VERSION, key.id, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(':')}`;
}

/** The plaintext of a sealed value; a value that is not sealed (written before sealing existed) as it is. */
export function openSecret(purpose: SecretPurpose, stored: string): string {
  if (!isSealed(stored)) return stored;
  const [version, id, iv, body, tag] = stored.slice(PREFIX.length).split(':');
  if (version !== VERSION || !id || !iv || body === undefined || !tag) throw new Error('Secrets at rest: unrecognised sealed value');
  const key = keys.find((k) => k.id === id);
  if (!key) {
    throw new Error(`Secrets at rest: a ${purpose} was sealed under another server secret (key id ${id}); set GATEHOUSE_SERVER_SECRET to the secret it was sealed with`);
  }
  // A fixed tag length: GCM would otherwise accept truncated tags.
  const decipher = createDecipheriv('aes-256-gcm', derive(key.secret, purpose), Buffer.from(iv, 'base64url'), { authTagLength: 16 });
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

const SEALED_BYTES = Buffer.from(PREFIX);

/** Bytes (a TOTP secret) sealed into the bytes of the sealed text. */
export function sealBytes(purpose: SecretPurpose, plaintext: Uint8Array): Uint8Array {
  return new Uint8Array(Buffer.from(sealSecret(purpose, Buffer.from(plaintext).toString('base64'))));
}

/** The inverse of `sealBytes`; bytes stored before sealing existed are returned as they are. */
export function openBytes(purpose: SecretPurpose, stored: Uint8Array): Uint8Array {
  const b = Buffer.from(stored);
  if (b.length < SEALED_BYTES.length || !b.subarray(0, SEALED_BYTES.length).equals(SEALED_BYTES)) return stored;
  return new Uint8Array(Buffer.from(openSecret(purpose, b.toString('utf8')), 'base64'));
}

/** The id of the key new values are sealed under (the current server secret's). */
export function currentSealKeyId(): string | null {
  return keys[0]?.id ?? null;
}

/** Whether a stored value should be sealed again: plaintext, or sealed under a key that is not the current one. */
export function needsReseal(stored: string): boolean {
  return !isSealed(stored) || sealedKeyId(stored) !== currentSealKeyId();
}

/** For tests and diagnostics: which key sealed a value (null: plaintext). */
export function sealedKeyId(stored: string): string | null {
  return isSealed(stored) ? stored.slice(PREFIX.length).split(':')[1] ?? null : null;
}
