import { describe, expect, test } from 'bun:test';
import {
  base64ToBytes,
  base64UrlDecode,
  base64UrlDecodeToString,
  base64UrlEncode,
  bytesToBase64,
  isBase64,
} from '../../src/rules/base64';

describe('isBase64', () => {
  test('valid', () => {
    for (const s of ['', 'Zg==', 'Zm8=', 'Zm9v', 'Zm9vYmFy', 'ab+/', 'JBSWY3DPEHPK3PXP']) expect(isBase64(s)).toBe(true);
  });

  test('invalid', () => {
    for (const s of ['Zg', 'Zg=', 'Z===', '=Zg=', 'Zm9v=', 'Zm 9v', 'ab-_', 'Zm9v\n', 'Zg==Zg==', 'a']) {
      expect(isBase64(s)).toBe(false);
    }
  });
});

describe('standard base64', () => {
  test('RFC 4648 vectors', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [text, b64] of vectors) {
      expect(bytesToBase64(text)).toBe(b64);
      expect(new TextDecoder().decode(base64ToBytes(b64))).toBe(text);
    }
  });

  test('bytes round-trip, including all byte values and large inputs', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(base64ToBytes(bytesToBase64(all))).toEqual(all);
    const big = new Uint8Array(200_000).map((_, i) => (i * 31) & 0xff);
    expect(base64ToBytes(bytesToBase64(big))).toEqual(big);
  });

  test('UTF-8 strings', () => {
    expect(bytesToBase64('é')).toBe('w6k=');
  });

  test('base64ToBytes rejects invalid input', () => {
    expect(() => base64ToBytes('Zg')).toThrow();
    expect(() => base64ToBytes('@@@@')).toThrow();
  });
});

describe('base64url', () => {
  test('no padding, url alphabet', () => {
    expect(base64UrlEncode(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    expect(base64UrlEncode('f')).toBe('Zg');
    expect(base64UrlDecode('-_8')).toEqual(new Uint8Array([0xfb, 0xff]));
    expect(base64UrlDecode('-_8=')).toEqual(new Uint8Array([0xfb, 0xff]));
    expect(base64UrlDecodeToString('Zm9vYmFy')).toBe('foobar');
  });

  test('32 random bytes give a 43-char PKCE verifier that round-trips', () => {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const encoded = base64UrlEncode(bytes);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(base64UrlDecode(encoded)).toEqual(bytes);
  });

  test('rejects invalid input', () => {
    expect(() => base64UrlDecode('a+b/')).toThrow();
    expect(() => base64UrlDecode('abcde')).toThrow();
    expect(() => base64UrlDecode('ab cd')).toThrow();
  });
});
