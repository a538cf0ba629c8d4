// The few browser globals the library touches, behind one interface. By default they come from globalThis
// (a real browser); the `browser` option can supply them explicitly (tests, webviews, embedded runtimes).
import { ENV_LITERALS } from './env-literals.ts';

export interface BrowserLocation {
  readonly href: string;
  readonly hostname: string;
  assign(url: string): void;
  replace(url: string): void;
  reload?(): void;
}

export interface BrowserEnvironment {
  /** `document.cookie`: reading returns `name=value; …`, assigning sets one cookie (attributes after `;`). */
  document: { cookie: string };
  location: BrowserLocation;
  history?: { replaceState(data: unknown, unused: string, url?: string | URL | null): void };
  navigator?: { onLine?: boolean };
  prompt?(message: string): string | null;
  alert?(message: string): void;
}

type GlobalWithBrowser = typeof globalThis & {
  window?: unknown;
  document?: { cookie: string };
  location?: BrowserLocation;
  history?: BrowserEnvironment['history'];
  navigator?: { onLine?: boolean };
  prompt?: (message: string) => string | null;
  alert?: (message: string) => void;
};

/** The real browser, if this code runs in one ("window and document exist"). */
export function detectBrowser(): BrowserEnvironment | null {
  const g = globalThis as GlobalWithBrowser;
  if (typeof g.window === 'undefined' || typeof g.document === 'undefined' || !g.location) return null;
  return {
    document: g.document,
    location: g.location,
    history: g.history,
    navigator: g.navigator,
    prompt: g.prompt ? (m) => g.prompt!(m) : undefined,
    alert: g.alert ? (m) => g.alert!(m) : undefined,
  };
}

/** `navigator` as seen by diagnostics (exists on servers too, e.g. Bun and Node ≥ 21). */
export function currentNavigator(browser: BrowserEnvironment | null): { onLine?: boolean } | undefined {
  return browser?.navigator ?? (globalThis as GlobalWithBrowser).navigator;
}

export type EnvName = keyof typeof ENV_LITERALS;
const envReaders: Record<EnvName, () => string | undefined> = ENV_LITERALS;

/** An environment variable the apps read (env-literals.ts says why by name); empty counts as unset. */
export function readEnv(name: EnvName): string | undefined {
  let value: string | undefined;
  try { value = envReaders[name](); } catch { value = undefined; }
  return value === '' ? undefined : value;
}
