import { describe, expect, test } from 'bun:test';
import { formatRelativeTime } from '../../src/rules/time';

const now = Date.UTC(2024, 5, 15, 12, 0, 0);
const ago = (ms: number) => formatRelativeTime(new Date(now - ms), now);

describe('formatRelativeTime', () => {
  test('Never for null/undefined', () => {
    expect(formatRelativeTime(null, now)).toBe('Never');
    expect(formatRelativeTime(undefined, now)).toBe('Never');
  });

  test('just now under 15 s, either direction', () => {
    expect(ago(0)).toBe('just now');
    expect(ago(14_999)).toBe('just now');
    expect(ago(-14_999)).toBe('just now');
  });

  test('seconds, minutes, hours, days, weeks with singular for 1', () => {
    expect(ago(15_000)).toBe('15 seconds ago');
    expect(ago(59_400)).toBe('59 seconds ago');
    expect(ago(59_600)).toBe('1 minute ago'); // rounds to 60 s ⇒ next unit
    expect(ago(90_000)).toBe('2 minutes ago'); // 1.5 rounds up
    expect(ago(45 * 60_000)).toBe('45 minutes ago');
    expect(ago(3_600_000)).toBe('1 hour ago');
    expect(ago(23 * 3_600_000)).toBe('23 hours ago');
    expect(ago(24 * 3_600_000)).toBe('1 day ago');
    expect(ago(6 * 86_400_000)).toBe('6 days ago');
    expect(ago(7 * 86_400_000)).toBe('1 week ago');
    expect(ago(4 * 604_800_000)).toBe('4 weeks ago');
  });

  test('future times', () => {
    expect(ago(-20_000)).toBe('in 20 seconds');
    expect(ago(-3_600_000)).toBe('in 1 hour');
    expect(ago(-2 * 604_800_000)).toBe('in 2 weeks');
  });

  test('5 weeks and beyond: US-English date', () => {
    expect(formatRelativeTime(Date.UTC(2022, 0, 15, 12), now, { timeZone: 'UTC' })).toBe('Jan 15, 2022');
    expect(formatRelativeTime(new Date(now - 5 * 604_800_000), now, { timeZone: 'UTC' })).toBe('May 11, 2024');
    expect(formatRelativeTime(new Date(now + 60 * 86_400_000), now, { timeZone: 'UTC' })).toBe('Aug 14, 2024');
  });

  test('accepts numbers and Dates for both arguments', () => {
    expect(formatRelativeTime(now - 120_000, new Date(now))).toBe('2 minutes ago');
  });
});
