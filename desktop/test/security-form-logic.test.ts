import { describe, expect, test } from 'bun:test';
import { passwordLengthBelowSuggestion, securityUpdate, securityValues, validateSecurity } from '../src/renderer/lib/security-form';

describe('security settings form (issue 30)', () => {
  const defaults = { newDeviceSignInNoticeEnabled: true, passwordMinLength: 8, sessionLifetimeSeconds: 31_536_000, sessionIdleTimeoutSeconds: null };

  test('hours and minutes on screen, seconds on the wire; no idle limit is null', () => {
    const v = securityValues(defaults);
    expect(v).toEqual({ newDeviceSignInNoticeEnabled: true, passwordMinLength: 8, sessionLifetimeHours: 8760, idleTimeoutEnabled: false, idleTimeoutMinutes: 60 });
    expect(securityUpdate(v)).toEqual(defaults);
    expect(securityUpdate({ ...v, idleTimeoutEnabled: true, idleTimeoutMinutes: 30, sessionLifetimeHours: '24' })).toMatchObject({ sessionIdleTimeoutSeconds: 1800, sessionLifetimeSeconds: 86_400 });
  });

  test("the service's bounds; the idle timeout only when on; 12+ suggested", () => {
    const v = securityValues(defaults);
    expect(validateSecurity(v)).toEqual({});
    expect(validateSecurity({ ...v, passwordMinLength: 7, sessionLifetimeHours: 0, idleTimeoutMinutes: 5 })).toEqual({ passwordMinLength: 'security.outOfRange', sessionLifetimeHours: 'security.outOfRange' });
    expect(validateSecurity({ ...v, idleTimeoutEnabled: true, idleTimeoutMinutes: 5 })).toEqual({ idleTimeoutMinutes: 'security.outOfRange' });
    expect(validateSecurity({ ...v, passwordMinLength: '' })).toEqual({ passwordMinLength: 'security.outOfRange' });
    expect(passwordLengthBelowSuggestion(8)).toBe(true);
    expect(passwordLengthBelowSuggestion(12)).toBe(false);
  });
});
