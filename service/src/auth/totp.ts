// TOTP as the SDK sets it up: HMAC-SHA1, 30-second steps, 6 digits, 20-byte secret. One step of clock drift either
// way is accepted (the reference server accepts only the current step); a code's step is used once per user.
import * as OTPAuth from 'otpauth';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DRIFT_STEPS = 1;

/** The time step the token matches (current ± drift), or null. */
export function matchTotpStep(secret: Uint8Array, token: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(token)) return null;
  const buffer = secret.buffer.slice(secret.byteOffset, secret.byteOffset + secret.byteLength) as ArrayBuffer;
  const totp = new OTPAuth.TOTP({ secret: new OTPAuth.Secret({ buffer }), algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS });
  // `validate` returns the step offset (0 for the current step), so null — not falsiness — means no match.
  const delta = totp.validate({ token, timestamp: now, window: TOTP_DRIFT_STEPS });
  if (delta === null) return null;
  return totp.counter({ timestamp: now }) + delta;
}
