// The overview's key numbers from GET /internal/metrics (daily points are {date: "YYYY-MM-DD", activity}).
export interface DailyPoint {
  date: string;
  activity: number;
}

export function sumLastDays(points: readonly DailyPoint[] | undefined, days: number, today: Date = new Date()): number {
  const from = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (days - 1)));
  const fromText = from.toISOString().slice(0, 10);
  return (points ?? []).filter((p) => p.date >= fromText).reduce((n, p) => n + p.activity, 0);
}

export function todayValue(points: readonly DailyPoint[] | undefined, today: Date = new Date()): number {
  const key = today.toISOString().slice(0, 10);
  return (points ?? []).find((p) => p.date === key)?.activity ?? 0;
}

/** Setup snippets for an app using this project. */
export function clientSnippets(o: { serviceUrl: string; projectId: string; publishableClientKey: string }) {
  const key = o.publishableClientKey;
  return {
    gatehouse: [
      "import { GatehouseClientApp } from '@gatehouse/shared/client';",
      '',
      'export const app = new GatehouseClientApp({',
      `  baseUrl: '${o.serviceUrl}',`,
      `  projectId: '${o.projectId}',`,
      `  publishableClientKey: '${key}',`,
      "  tokenStore: 'cookie',",
      '});',
    ].join('\n'),
    stack: [
      "import { StackClientApp } from '@stackframe/js';",
      '',
      'export const stackClientApp = new StackClientApp({',
      `  baseUrl: '${o.serviceUrl}',`,
      `  projectId: '${o.projectId}',`,
      `  publishableClientKey: '${key}',`,
      "  tokenStore: 'cookie',",
      '});',
    ].join('\n'),
  };
}
