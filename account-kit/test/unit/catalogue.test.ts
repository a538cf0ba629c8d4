// The message catalogue: English and German complete, German really German, placeholders kept.
import { describe, expect, test } from 'bun:test';
import { en } from '../../src/messages/en';
import { de } from '../../src/messages/de';
import { createTranslator, loadCatalogue } from '../../src/messages';

// Words that are the same in both languages (German has taken them over).
const SAME_IN_GERMAN = new Set<string>(['Team', 'Teams', 'Name', 'Status', 'Zoom', 'Passkey']);
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('catalogue', () => {
  test('German has exactly the English keys', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
  });

  test('no text is empty in either language', () => {
    for (const [key, text] of [...Object.entries(en), ...Object.entries(de)]) expect({ key, empty: !text.trim() }).toEqual({ key, empty: false });
  });

  test('German texts differ from English except the short allow-list', () => {
    const same = Object.keys(en).filter((k) => de[k as keyof typeof de] === en[k as keyof typeof en] && !SAME_IN_GERMAN.has(en[k as keyof typeof en]));
    expect(same).toEqual([]);
  });

  test('every placeholder of the English text is in the German one (and no other)', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect({ key, placeholders: placeholders(de[key]) }).toEqual({ key, placeholders: placeholders(en[key]) });
    }
  });
});

describe('translator', () => {
  test('fills placeholders, keeps unknown ones, takes overrides', () => {
    const t = createTranslator(en, { 'signIn.title': 'Welcome back' });
    expect(t('signIn.withProvider', { provider: 'GitHub' })).toBe('Sign in with GitHub');
    expect(t('signIn.withProvider')).toBe('Sign in with {provider}');
    expect(t('signIn.withProvider', { other: 1 })).toBe('Sign in with {provider}');
    expect(t('signIn.title')).toBe('Welcome back');
  });

  test('German loads on demand; an unknown language falls back to English', async () => {
    expect((await loadCatalogue('de'))['signIn.title']).toBe(de['signIn.title']);
    expect(await loadCatalogue('xx')).toBe(en);
  });
});
