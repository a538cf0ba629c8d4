// Relative time for the sessions table (client-library §7.4, seed §2 Active Sessions).

const UNITS: readonly (readonly [nextUnitSize: number, name: string])[] = [
  [60, 'second'],
  [60, 'minute'],
  [24, 'hour'],
  [7, 'day'],
  [5, 'week'],
];

export interface RelativeTimeOptions {
  /** Time zone of the absolute-date fallback (default: the runtime's). */
  timeZone?: string;
}

/**
 * `Never` for null; `just now` within 15 s either way; else `N <unit>(s) ago` / `in N <unit>(s)` where the value is
 * rounded in seconds (< 60), minutes (< 60), hours (< 24), days (< 7), weeks (< 5); beyond that a US-English date
 * like `Jan 15, 2022`.
 */
export function formatRelativeTime(
  date: Date | number | null | undefined,
  now: Date | number = Date.now(),
  options: RelativeTimeOptions = {},
): string {
  if (date == null) return 'Never';
  const time = typeof date === 'number' ? date : date.getTime();
  const elapsed = (typeof now === 'number' ? now : now.getTime()) - time;
  let amount = Math.abs(elapsed) / 1000;
  if (amount < 15) return 'just now';
  for (const [nextUnitSize, name] of UNITS) {
    const rounded = Math.round(amount);
    if (rounded < nextUnitSize) {
      const unit = `${rounded} ${name}${rounded === 1 ? '' : 's'}`;
      return elapsed < 0 ? `in ${unit}` : `${unit} ago`;
    }
    amount /= nextUnitSize;
  }
  return new Date(time).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: options.timeZone,
  });
}
