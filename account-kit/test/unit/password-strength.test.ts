import { describe, expect, test } from 'bun:test';
import { loadStrengthEstimator, strengthLevel } from '../../src/lib/password-strength';

describe('password strength (zxcvbn-ts, ASVS 2.1.8)', () => {
  test('common and guessable passwords score low, long random ones high', async () => {
    const estimate = await loadStrengthEstimator();
    expect(estimate('password')).toBe(0);
    expect(estimate('qwerty123')).toBeLessThanOrEqual(1);
    expect(estimate('ada.lovelace@example.com', ['ada.lovelace@example.com'])).toBeLessThanOrEqual(1);
    expect(estimate('vT7#qL9!mZ2$wX4pK8')).toBe(4);
    // Loaded once: the same estimator for every field.
    expect(await loadStrengthEstimator()).toBe(estimate);
  });

  test('each score has its text, colour and a visible bar', () => {
    expect(strengthLevel(0)).toEqual({ key: 'password.strength.0', color: 'red', value: 20 });
    expect(strengthLevel(4)).toEqual({ key: 'password.strength.4', color: 'green', value: 100 });
  });
});
