import { describe, expect, test } from 'bun:test';
import {
  codeNonce,
  encodeCrockfordBase32,
  generateApiKey,
  generateHexCode,
  generateSecureCode,
  isSecureCode,
  joinOtp,
  sha256Hex,
  splitOtp,
  timingSafeEqualStrings,
} from '../../src/rules/codes';

describe('generateSecureCode', () => {
  test('45 lowercase Crockford base32 characters', () => {
    for (let i = 0; i < 200; i++) {
      const code = generateSecureCode();
      expect(code).toHaveLength(45);
      expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
      expect(isSecureCode(code)).toBe(true);
    }
  });

  test('unique and every alphabet character appears in every position over many draws', () => {
    const codes = new Set<string>();
    const seenFirst = new Set<string>();
    const seenLast = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const code = generateSecureCode();
      codes.add(code);
      seenFirst.add(code[0]!);
      seenLast.add(code[44]!);
    }
    expect(codes.size).toBe(3000);
    // 32 symbols, 3000 draws: missing one by chance has probability ~32·(31/32)^3000 ≈ 0.
    expect(seenFirst.size).toBe(32);
    expect(seenLast.size).toBe(32);
  });

  test('rejects look-alike letters and wrong lengths', () => {
    expect(isSecureCode('i'.repeat(45))).toBe(false);
    expect(isSecureCode('a'.repeat(44))).toBe(false);
    expect(isSecureCode('A'.repeat(45))).toBe(false);
  });
});

describe('encodeCrockfordBase32', () => {
  test('known vectors (most significant bits first, zero-padded)', () => {
    expect(encodeCrockfordBase32(new Uint8Array([]))).toBe('');
    expect(encodeCrockfordBase32(new Uint8Array([0]))).toBe('00');
    expect(encodeCrockfordBase32(new Uint8Array([0xff]))).toBe('zw');
    // "f" = 0x66 = 01100 110(00) → 12, 24 → "cr"
    expect(encodeCrockfordBase32(new TextEncoder().encode('f'))).toBe('cr');
    expect(encodeCrockfordBase32(new TextEncoder().encode('foobar'))).toBe('csqpyrk1e8');
  });
});

describe('API keys', () => {
  test.each(['pck', 'ssk', 'sak'] as const)('%s key', (prefix) => {
    const key = generateApiKey(prefix);
    expect(key).toMatch(new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{45}$`));
  });
});

describe('OTP split/join', () => {
  const code = 'abc123defghjkmnpqrstvwxyz0123456789abcdefghjk';
  test('code fixture is a secure code', () => expect(isSecureCode(code)).toBe(true));

  test('splitOtp gives the upper-cased 6-char OTP and the 39-char nonce', () => {
    const { otp, nonce } = splitOtp(code);
    expect(otp).toBe('ABC123');
    expect(nonce).toBe(code.slice(6));
    expect(nonce).toHaveLength(39);
  });

  test('joinOtp round-trips and lower-cases what the user typed', () => {
    const { otp, nonce } = splitOtp(code);
    expect(joinOtp(otp, nonce)).toBe(code);
    expect(joinOtp('abC123', nonce.toUpperCase())).toBe(code);
  });

  test('codeNonce is the last 39 characters, lowercased', () => {
    expect(codeNonce(code.toUpperCase())).toBe(code.slice(6));
    expect(codeNonce('ZZZZZZ' + code.slice(6))).toBe(codeNonce(code));
  });
});

describe('generateHexCode', () => {
  test('default 32 bytes = 64 lowercase hex characters', () => {
    expect(generateHexCode()).toMatch(/^[0-9a-f]{64}$/);
    expect(generateHexCode(4)).toMatch(/^[0-9a-f]{8}$/);
    expect(generateHexCode()).not.toBe(generateHexCode());
  });
});

describe('sha256Hex', () => {
  test('known digests (UTF-8)', async () => {
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('é')).toBe(await sha256Hex('\u00e9'));
    expect(await sha256Hex('é')).not.toBe(await sha256Hex('e\u0301'));
  });
});

describe('timingSafeEqualStrings', () => {
  test('equality', () => {
    expect(timingSafeEqualStrings('', '')).toBe(true);
    expect(timingSafeEqualStrings('abc', 'abc')).toBe(true);
    expect(timingSafeEqualStrings('abc', 'abd')).toBe(false);
    expect(timingSafeEqualStrings('abc', 'ab')).toBe(false);
    expect(timingSafeEqualStrings('ab', 'abc')).toBe(false);
    expect(timingSafeEqualStrings('', 'a')).toBe(false);
    expect(timingSafeEqualStrings('a', '')).toBe(false);
    // Same length, prefix of another character sequence repeated: must not wrap around into a false match.
    expect(timingSafeEqualStrings('aaaa', 'aa')).toBe(false);
    expect(timingSafeEqualStrings('\u{1F600}', '\u{1F601}')).toBe(false);
  });
});
