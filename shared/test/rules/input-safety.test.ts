import { describe, expect, test } from 'bun:test';
import { hasUnsafeNameCharacters, reservedJsonKeyPath } from '../../src/rules/input-safety';

describe('reservedJsonKeyPath (ASVS 5.1.3)', () => {
  test('finds __proto__, constructor and prototype at any depth', () => {
    expect(reservedJsonKeyPath(JSON.parse('{"__proto__": {"admin": true}}'))).toBe('.__proto__');
    expect(reservedJsonKeyPath({ a: { b: [{ constructor: 1 }] } })).toBe('.a.b[0].constructor');
    expect(reservedJsonKeyPath([1, { x: { prototype: null } }])).toBe('[1].x.prototype');
  });

  test('lets ordinary values through, reserved words as values included', () => {
    expect(reservedJsonKeyPath({ a: 'constructor', b: ['__proto__'], c: { protos: 1, Constructor: 2 } })).toBeNull();
    expect(reservedJsonKeyPath(null)).toBeNull();
    expect(reservedJsonKeyPath('x')).toBeNull();
  });

  test('deep values do not overflow the stack', () => {
    let v: unknown = { __proto_: 1 };
    for (let i = 0; i < 100_000; i++) v = { a: v };
    expect(reservedJsonKeyPath(v)).toBeNull();
  });
});

describe('hasUnsafeNameCharacters (ASVS 5.2.2)', () => {
  test('refuses control and bidirectional override characters', () => {
    for (const c of ['\u0007', '\n', '\t', '\u007f', '\u0085', '\u202e', '\u202a', '\u2066', '\u2069']) {
      expect(hasUnsafeNameCharacters(`Ann${c}a`)).toBe(true);
    }
  });

  test('accepts names in any script', () => {
    for (const n of ['Ann Smith', 'Zoë Ørsted', 'محمد', 'יעל', '张伟', '👩‍💻 Dev', '']) expect(hasUnsafeNameCharacters(n)).toBe(false);
  });
});
