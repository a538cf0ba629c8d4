// Relative times of the sessions table (client-library §7.4): every unit, singular and plural, past and future.
import { describe, expect, test } from 'bun:test';
import { isBeyondYears, relativeTime, relativeTimeKey } from '../../src/lib/relative-time';
import { createTranslator, en } from '../../src/messages';
import { deSettings } from '../../src/messages/de-settings';

const now = new Date('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const t = createTranslator(en);
function say(date: Date) {
  const r = relativeTime(date, now);
  if (r.kind === 'just-now') return t('settings.time.justNow');
  if (r.kind === 'date') return r.text;
  return t(relativeTimeKey(r), { count: r.count });
}

describe('relative time', () => {
  test('"just now" within 15 seconds, past or future', () => {
    expect(say(ago(0))).toBe('just now');
    expect(say(ago(14_999))).toBe('just now');
    expect(say(ago(-14_999))).toBe('just now');
    expect(say(ago(15_000))).toBe('15 seconds ago');
  });
  test('every unit, singular and plural, in the past', () => {
    expect(say(ago(59_000))).toBe('59 seconds ago');
    expect(say(ago(60_000))).toBe('1 minute ago');
    expect(say(ago(2 * 60_000))).toBe('2 minutes ago');
    expect(say(ago(3_600_000))).toBe('1 hour ago');
    expect(say(ago(5 * 3_600_000))).toBe('5 hours ago');
    expect(say(ago(86_400_000))).toBe('1 day ago');
    expect(say(ago(3 * 86_400_000))).toBe('3 days ago');
    expect(say(ago(7 * 86_400_000))).toBe('1 week ago');
    expect(say(ago(4 * 7 * 86_400_000))).toBe('4 weeks ago');
  });
  test('every unit in the future', () => {
    expect(say(ago(-20_000))).toBe('in 20 seconds');
    expect(say(ago(-60_000))).toBe('in 1 minute');
    expect(say(ago(-30 * 60_000))).toBe('in 30 minutes');
    expect(say(ago(-3_600_000))).toBe('in 1 hour');
    expect(say(ago(-2 * 86_400_000))).toBe('in 2 days');
    expect(say(ago(-86_400_000))).toBe('in 1 day');
    expect(say(ago(-7 * 86_400_000))).toBe('in 1 week');
    expect(say(ago(-14 * 86_400_000))).toBe('in 2 weeks');
  });
  test('rounding picks the unit: 59.6 s is "1 minute", 23.6 h is "1 day"', () => {
    expect(say(ago(59_600))).toBe('1 minute ago');
    expect(say(ago(23.6 * 3_600_000))).toBe('1 day ago');
  });
  test('beyond five weeks: a US-English date', () => {
    expect(say(new Date('2022-01-15T12:00:00Z'))).toBe('Jan 15, 2022');
    expect(say(ago(5 * 7 * 86_400_000))).toBe('Feb 3, 2026');
  });
  test('German has its own words for every unit', () => {
    const de = createTranslator({ ...en, ...deSettings });
    expect(de('settings.time.minutes.ago', { count: 3 })).toBe('vor 3 Minuten');
    expect(de('settings.time.week.in', { count: 1 })).toBe('in 1 Woche');
  });
  test('the "Never" rule: no date, or further ahead than the configured years', () => {
    expect(isBeyondYears(undefined, 50, now)).toBe(true);
    expect(isBeyondYears(new Date('2077-03-10T12:00:01Z'), 50, now)).toBe(true);
    expect(isBeyondYears(new Date('2076-03-10T12:00:00Z'), 50, now)).toBe(false);
    expect(isBeyondYears(new Date('2026-04-10T12:00:00Z'), 50, now)).toBe(false);
  });
});
