// "Last used" times of the sessions table (client-library §7.4): "just now" within 15 s either way, then the
// largest unit that keeps the number under its limit (s < 60, min < 60, h < 24, days < 7, weeks < 5), else a
// US-English date. Pure: returns what to say, the catalogue says it (so German gets its own words).

export type RelativeTimeUnit = 'second' | 'minute' | 'hour' | 'day' | 'week';
export type RelativeTime =
  | { kind: 'just-now' }
  | { kind: 'relative'; unit: RelativeTimeUnit; count: number; future: boolean }
  | { kind: 'date'; text: string };

const STEPS: { unit: RelativeTimeUnit; ms: number; below: number }[] = [
  { unit: 'second', ms: 1000, below: 60 },
  { unit: 'minute', ms: 60_000, below: 60 },
  { unit: 'hour', ms: 3_600_000, below: 24 },
  { unit: 'day', ms: 86_400_000, below: 7 },
  { unit: 'week', ms: 604_800_000, below: 5 },
];

export const JUST_NOW_MS = 15_000;

export function relativeTime(date: Date, now: Date = new Date()): RelativeTime {
  const diff = now.getTime() - date.getTime();
  const abs = Math.abs(diff);
  if (abs < JUST_NOW_MS) return { kind: 'just-now' };
  for (const step of STEPS) {
    const count = Math.round(abs / step.ms);
    if (count < step.below) return { kind: 'relative', unit: step.unit, count, future: diff < 0 };
  }
  return { kind: 'date', text: date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }) };
}

/** The catalogue key of a relative time: `settings.time.<unit>[s].<ago|in>`, singular when the count is 1. */
export function relativeTimeKey(r: Extract<RelativeTime, { kind: 'relative' }>): `settings.time.${RelativeTimeUnit}${'' | 's'}.${'ago' | 'in'}` {
  return `settings.time.${r.unit}${r.count === 1 ? '' : 's'}.${r.future ? 'in' : 'ago'}`;
}

/** Dates further ahead than `years` (an API key's "Never" = 200 years) are shown as "Never". */
export function isBeyondYears(date: Date | null | undefined, years: number, now: Date = new Date()): boolean {
  if (!date) return true;
  const limit = new Date(now);
  limit.setFullYear(limit.getFullYear() + years);
  return date.getTime() > limit.getTime();
}
