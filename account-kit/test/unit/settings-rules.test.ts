// Smaller rules of the settings page: image compression loop and canvas limits, API key table, sidebar items,
// error texts and the sign-in-again URL, the TOTP check, and that both catalogues have every settings text.
import { describe, expect, test } from 'bun:test';
import * as OTPAuth from 'otpauth';
import { canvasSideLimit, compressToTarget, fitCanvas } from '../../src/lib/image-compression';
import { apiKeyStatus, expiresAtFor, expiryDisplay, filterApiKeys, sortApiKeys } from '../../src/lib/api-key-rules';
import { builtinItemIds, hashId, selectedItem, showTeamsDivider } from '../../src/lib/settings-items';
import { errorNotice, isRecentSignInRequired, reauthenticationUrl } from '../../src/lib/settings-errors';
import { base32Encode, otpauthUri, verifyTotp } from '../../src/lib/totp';
import { enSettings } from '../../src/messages/en-settings';
import { deSettings } from '../../src/messages/de-settings';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { NetworkError } from '@gatehouse/shared/client';

describe('image compression', () => {
  // A JPEG-like encoder: bytes grow with quality and with the area.
  const encoder = (fullBytes: number) => async (q: number, scale: number) => ({ bytes: Math.round(fullBytes * q * scale * scale), value: { q, scale } });

  test('fits the budget in at most 10 passes, as large as possible', async () => {
    const r = await compressToTarget(encoder(500_000), 100_000);
    expect(r.bytes).toBeLessThanOrEqual(100_000);
    expect(r.bytes).toBeGreaterThan(70_000);
    expect(r.passes).toBeLessThanOrEqual(10);
  });
  test('a small picture is kept at top quality in one pass', async () => {
    const r = await compressToTarget(encoder(50_000), 100_000);
    expect(r).toMatchObject({ passes: 1, value: { q: 0.92, scale: 1 } });
  });
  test('a huge picture is scaled down when quality alone is not enough', async () => {
    const r = await compressToTarget(encoder(20_000_000), 100_000);
    expect(r.bytes).toBeLessThanOrEqual(100_000);
    expect(r.value.scale).toBeLessThan(1);
    expect(r.passes).toBeLessThanOrEqual(10);
  });
  test('never more than 10 passes: the smallest result when nothing fits', async () => {
    let calls = 0;
    const r = await compressToTarget(async (q, s) => { calls++; return { bytes: 10_000_000 + q + s, value: null }; }, 100_000);
    expect(calls).toBe(10);
    expect(r.passes).toBe(10);
  });
  test('canvas side limits per browser and fitting into them', () => {
    expect(canvasSideLimit('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36')).toBe(16384);
    expect(canvasSideLimit('Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0')).toBe(11180);
    expect(canvasSideLimit('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1')).toBe(4096);
    expect(canvasSideLimit('Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 Version/18.0 Safari/605.1.15')).toBe(8192);
    expect(fitCanvas(20000, 10000, 4096)).toEqual({ width: 4096, height: 2048 });
    expect(fitCanvas(300, 200, 4096)).toEqual({ width: 300, height: 200 });
  });
});

describe('API keys', () => {
  const now = new Date('2026-03-10T00:00:00Z');
  const key = (description: string, created: string, why: 'manually-revoked' | 'expired' | null, expiresAt?: Date) => ({
    description, createdAt: new Date(created), expiresAt, value: { lastFour: description.slice(-4).padStart(4, 'x') }, whyInvalid: () => why,
  });
  test('valid keys first, then newest first', () => {
    const keys = [key('old valid', '2026-01-01', null), key('revoked new', '2026-03-01', 'manually-revoked'), key('new valid', '2026-02-01', null), key('expired', '2026-02-15', 'expired')];
    expect(sortApiKeys(keys).map((k) => k.description)).toEqual(['new valid', 'old valid', 'revoked new', 'expired']);
    expect(keys.map(apiKeyStatus)).toEqual(['valid', 'revoked', 'valid', 'expired']);
  });
  test('search and status filter', () => {
    const keys = [key('CI', '2026-01-01', null), key('Production', '2026-01-02', 'manually-revoked')];
    expect(filterApiKeys(keys, 'prod', []).map((k) => k.description)).toEqual(['Production']);
    expect(filterApiKeys(keys, '', ['valid']).map((k) => k.description)).toEqual(['CI']);
    expect(filterApiKeys(keys, '', []).length).toBe(2);
  });
  test('expiry choices, "Never" is 200 years and shows as Never, a revoked key shows "-"', () => {
    expect(expiresAtFor('1d', now).toISOString()).toBe('2026-03-11T00:00:00.000Z');
    expect(expiresAtFor('30d', now).toISOString()).toBe('2026-04-09T00:00:00.000Z');
    expect(expiresAtFor('1y', now).toISOString()).toBe('2027-03-10T00:00:00.000Z');
    expect(expiresAtFor('never', now).getUTCFullYear()).toBe(2226);
    expect(expiryDisplay(key('k', '2026-01-01', null, expiresAtFor('never', now)), now)).toEqual({ kind: 'never' });
    expect(expiryDisplay(key('k', '2026-01-01', 'manually-revoked', expiresAtFor('7d', now)), now)).toEqual({ kind: 'dash' });
    expect(expiryDisplay(key('k', '2026-01-01', null, expiresAtFor('7d', now)), now)).toEqual({ kind: 'date', date: expiresAtFor('7d', now) });
  });
});

describe('sidebar items', () => {
  const items = ['profile', 'auth', 'sessions', 'settings'].map((id) => ({ id, title: id }));
  test('API keys only when the project allows them; the Teams divider with a team or team creation', () => {
    expect(builtinItemIds({ allowUserApiKeys: false, clientTeamCreationEnabled: false, teamCount: 0 })).toEqual(['profile', 'auth', 'sessions', 'settings']);
    expect(builtinItemIds({ allowUserApiKeys: true, clientTeamCreationEnabled: false, teamCount: 0 })).toEqual(['profile', 'auth', 'sessions', 'api-keys', 'settings']);
    expect(showTeamsDivider({ allowUserApiKeys: false, clientTeamCreationEnabled: false, teamCount: 0 })).toBe(false);
    expect(showTeamsDivider({ allowUserApiKeys: false, clientTeamCreationEnabled: false, teamCount: 1 })).toBe(true);
    expect(showTeamsDivider({ allowUserApiKeys: false, clientTeamCreationEnabled: true, teamCount: 0 })).toBe(true);
  });
  test('the hash selects; wide screens fall back to the first item, small screens to the list', () => {
    expect(selectedItem(items, '#sessions', true)?.id).toBe('sessions');
    expect(selectedItem(items, '#sessions', false)?.id).toBe('sessions');
    expect(selectedItem(items, '#nothing', true)?.id).toBe('profile');
    expect(selectedItem(items, '', false)).toBeNull();
    expect(hashId('#team-abc%20d')).toBe('team-abc d');
  });
});

describe('errors and signing in again', () => {
  test("a known error shows the catalogue's text for its code, with the code; others the unhandled text for development or production", () => {
    expect(errorNotice(new KnownErrors.EmailPasswordMismatch(), false)).toEqual({ key: 'error.emailPasswordMismatch', code: 'EMAIL_PASSWORD_MISMATCH' });
    expect(errorNotice(new KnownErrors.TeamMembershipAlreadyExists(), false)).toEqual({ key: 'error.refused', code: 'TEAM_MEMBERSHIP_ALREADY_EXISTS' });
    expect(errorNotice(new Error('boom'), true)).toEqual({ key: 'settings.error.unhandledDev', code: null });
    expect(errorNotice(new Error('boom'), false)).toEqual({ key: 'settings.error.unhandledProd', code: null });
    expect(errorNotice(Object.create(NetworkError.prototype), false)).toEqual({ key: 'error.network', code: null });
  });
  test('RECENT_SIGN_IN_REQUIRED is recognised', () => {
    expect(isRecentSignInRequired(new KnownErrors.RecentSignInRequired())).toBe(true);
    expect(isRecentSignInRequired(new KnownErrors.EmailPasswordMismatch())).toBe(false);
    expect(isRecentSignInRequired(new Error('RECENT_SIGN_IN_REQUIRED'))).toBe(false);
  });
  test('"Sign in again" goes to sign-in and returns to the same section', () => {
    expect(reauthenticationUrl('/handler/sign-in', { pathname: '/handler/account-settings', search: '' }, 'auth'))
      .toBe('/handler/sign-in?after_auth_return_to=%2Fhandler%2Faccount-settings%23auth');
    expect(reauthenticationUrl('/handler/sign-in', { pathname: '/account', search: '?a=1&after_auth_return_to=%2Fx' }, 'team-1'))
      .toBe('/handler/sign-in?after_auth_return_to=%2Faccount%3Fa%3D1%23team-1');
  });
});

describe('TOTP enrolment', () => {
  test('the otpauth URI and the code check agree with an authenticator app (the otpauth library)', async () => {
    const secret = crypto.getRandomValues(new Uint8Array(20));
    const uri = otpauthUri(secret, 'My App', 'ada@example.com');
    const parsed = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
    expect(parsed.issuer).toBe('My App');
    expect(parsed.label).toBe('ada@example.com');
    expect(parsed.secret.base32).toBe(base32Encode(secret));
    expect([parsed.digits, parsed.period, parsed.algorithm]).toEqual([6, 30, 'SHA1']);
    const now = Date.now();
    expect(await verifyTotp(secret, parsed.generate({ timestamp: now }), now)).toBe(true);
    expect(await verifyTotp(secret, parsed.generate({ timestamp: now - 30_000 }), now)).toBe(true);
    expect(await verifyTotp(secret, parsed.generate({ timestamp: now - 90_000 }), now)).toBe(false);
    expect(await verifyTotp(secret, '12345', now)).toBe(false);
  });
});

describe('catalogues', () => {
  test('German has every settings text, none empty, with the same placeholders', () => {
    expect(Object.keys(deSettings).sort()).toEqual(Object.keys(enSettings).sort());
    for (const [key, text] of Object.entries(enSettings)) {
      const de = (deSettings as Record<string, string>)[key]!;
      expect(de.length).toBeGreaterThan(0);
      expect((de.match(/\{\w+\}/g) ?? []).sort()).toEqual((text.match(/\{\w+\}/g) ?? []).sort());
    }
  });
});
