// GET /internal/metrics shaped for the Metrics screen's charts and the lists next to them. The figures are the
// API's, untouched: this only joins, labels, orders and decides when a chart has nothing to show.
import type { DailyPoint } from './overview-numbers';
import { OAUTH_PROVIDERS } from './oauth-providers';

export interface MetricsJson {
  total_users: number;
  daily_users: DailyPoint[];
  daily_active_users: DailyPoint[];
  login_methods: { method: string; count: number }[];
  users_by_country: Record<string, number>;
  recently_registered: unknown[];
  recently_active: unknown[];
}

export interface DailyRow {
  /** "YYYY-MM-DD" (UTC), as the API gives it. */
  date: string;
  /** Short label for the axis, e.g. "Nov 24". */
  label: string;
  value: number;
}

/** A day of the series with a short axis label; the days are UTC days, so the label is read in UTC too. */
export function dailyRows(points: readonly DailyPoint[] | undefined, locale?: string): DailyRow[] {
  const fmt = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return (points ?? []).map((p) => ({ date: p.date, label: fmt.format(new Date(`${p.date}T00:00:00Z`)), value: p.activity }));
}

export function seriesTotal(points: readonly DailyPoint[] | undefined): number {
  return (points ?? []).reduce((n, p) => n + p.activity, 0);
}

/** The last day of a series: today as the service counts days (UTC), whatever the reader's clock says. */
export function latestValue(points: readonly DailyPoint[] | undefined): number {
  return points?.at(-1)?.activity ?? 0;
}

/** A series of zeros (a new project, or a quiet month) gets the empty state instead of a flat line. */
export function isQuietSeries(points: readonly DailyPoint[] | undefined): boolean {
  return seriesTotal(points) === 0;
}

export type MethodKind = 'password' | 'otp' | 'passkey' | 'oauth' | 'other';

export interface MethodRow {
  method: string;
  kind: MethodKind;
  /** A provider's own name (GitHub); null for the built-in methods, which the message catalogue names. */
  providerName: string | null;
  count: number;
}

/** The methods in use, most used first (ties by name), each with what the screen needs to name it. */
export function methodRows(methods: readonly { method: string; count: number }[] | undefined): MethodRow[] {
  return [...(methods ?? [])]
    .filter((m) => m.count > 0)
    .sort((a, b) => b.count - a.count || a.method.localeCompare(b.method))
    .map((m) => {
      if (m.method === 'password' || m.method === 'otp' || m.method === 'passkey' || m.method === 'other') {
        return { method: m.method, kind: m.method, providerName: null, count: m.count };
      }
      const known = OAUTH_PROVIDERS.find((p) => p.id === m.method);
      return { method: m.method, kind: 'oauth' as const, providerName: known?.name ?? m.method, count: m.count };
    });
}

export interface CountryRow {
  code: string;
  /** The country's name in the reader's language, or the code when the runtime does not know it. */
  name: string;
  count: number;
}

/** Countries most users first (ties by code); only the top `limit` are charted, the list shows them all. */
export function countryRows(byCountry: Record<string, number> | undefined, locale?: string): CountryRow[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(locale ? [locale] : undefined, { type: 'region' });
  } catch {
    names = null;
  }
  return Object.entries(byCountry ?? {})
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([code, count]) => {
      let name = code;
      try {
        name = names?.of(code) ?? code;
      } catch {
        // A code Intl rejects (not two letters) is shown as it came.
      }
      return { code, name, count };
    });
}

/** Users in the countries list against all users: the rest have no known location. */
export function unlocatedUsers(total: number, rows: readonly CountryRow[]): number {
  return Math.max(0, total - rows.reduce((n, r) => n + r.count, 0));
}

export interface RecentUserRow {
  id: string;
  /** Display name, else the primary email, else the id: what names the user in the list. */
  title: string;
  /** The email under the name, when the name is not already the email. */
  subtitle: string | null;
  imageUrl: string | null;
  /** Signed up (recent sign-ups) or last active (recently active). */
  at: Date | null;
}

/** The API's server users of `recently_registered` / `recently_active`, as the lists show them. */
export function recentUserRows(list: readonly unknown[] | undefined, by: 'registered' | 'active'): RecentUserRow[] {
  return (list ?? []).map((raw) => {
    const u = raw as { id: string; display_name?: string | null; primary_email?: string | null; profile_image_url?: string | null; signed_up_at_millis?: number | null; last_active_at_millis?: number | null };
    const email = u.primary_email ?? null;
    const title = u.display_name || email || u.id;
    const ms = by === 'registered' ? u.signed_up_at_millis : (u.last_active_at_millis ?? u.signed_up_at_millis);
    return { id: u.id, title, subtitle: email && email !== title ? email : null, imageUrl: u.profile_image_url ?? null, at: typeof ms === 'number' ? new Date(ms) : null };
  });
}
