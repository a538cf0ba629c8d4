// Which card a code-checking page shows for a verification error, and reading the code from the address.
import { describe, expect, test } from 'bun:test';
import { KnownError } from '@gatehouse/shared/known-errors';
import { codeFromSearch, codeProblem } from '../../src/lib/verification';

const known = (code: string) => KnownError.fromJSON({ code, error: 'x' });

describe('codeProblem', () => {
  test('not found and too many attempts are an invalid link; expired and used have their own cards', () => {
    expect(codeProblem(known('VERIFICATION_CODE_NOT_FOUND'))).toBe('invalid');
    expect(codeProblem(known('VERIFICATION_CODE_MAX_ATTEMPTS_REACHED'))).toBe('invalid');
    expect(codeProblem(known('VERIFICATION_CODE_EXPIRED'))).toBe('expired');
    expect(codeProblem(known('VERIFICATION_CODE_ALREADY_USED'))).toBe('used');
  });
  test('anything else is unknown', () => {
    expect(codeProblem(known('USER_NOT_FOUND'))).toBe('unknown');
    expect(codeProblem(new Error('x'))).toBe('unknown');
    expect(codeProblem(null)).toBe('unknown');
  });
});

describe('codeFromSearch', () => {
  test('the code query parameter; missing or empty is null', () => {
    expect(codeFromSearch('?code=abc&x=1')).toBe('abc');
    expect(codeFromSearch('?x=1')).toBeNull();
    expect(codeFromSearch('?code=')).toBeNull();
    expect(codeFromSearch('')).toBeNull();
  });
});
