// The API keys table and create dialog (client-library §7.5). Pure.
import type { MessageKey } from '../messages';
import { isBeyondYears } from './relative-time';

export type ApiKeyStatus = 'valid' | 'expired' | 'revoked';
export interface ApiKeyLike {
  description: string;
  createdAt: Date;
  expiresAt: Date | undefined;
  value: { lastFour: string } | string;
  whyInvalid(): 'manually-revoked' | 'expired' | null;
}

export function apiKeyStatus(key: Pick<ApiKeyLike, 'whyInvalid'>): ApiKeyStatus {
  const why = key.whyInvalid();
  return why === 'manually-revoked' ? 'revoked' : why === 'expired' ? 'expired' : 'valid';
}

/** Valid keys first, then newest first. */
export function sortApiKeys<K extends ApiKeyLike>(keys: readonly K[]): K[] {
  return [...keys].sort((a, b) => Number(apiKeyStatus(b) === 'valid') - Number(apiKeyStatus(a) === 'valid') || b.createdAt.getTime() - a.createdAt.getTime());
}

export function filterApiKeys<K extends ApiKeyLike>(keys: readonly K[], search: string, statuses: readonly ApiKeyStatus[]): K[] {
  const q = search.trim().toLowerCase();
  return keys.filter((k) => (!q || k.description.toLowerCase().includes(q) || lastFour(k).toLowerCase().includes(q)) && (!statuses.length || statuses.includes(apiKeyStatus(k))));
}

export function lastFour(key: Pick<ApiKeyLike, 'value'>): string {
  return typeof key.value === 'string' ? key.value.slice(-4) : key.value.lastFour;
}

export const NEVER_YEARS = 200;
/** Expiry dates more than this many years ahead read "Never". */
export const NEVER_DISPLAY_YEARS = 50;

export type ExpiryChoice = '1d' | '7d' | '30d' | '90d' | '1y' | 'never';
export const EXPIRY_CHOICES: { value: ExpiryChoice; key: MessageKey; days: number | null }[] = [
  { value: '1d', key: 'settings.apiKeys.expires.1d', days: 1 },
  { value: '7d', key: 'settings.apiKeys.expires.7d', days: 7 },
  { value: '30d', key: 'settings.apiKeys.expires.30d', days: 30 },
  { value: '90d', key: 'settings.apiKeys.expires.90d', days: 90 },
  { value: '1y', key: 'settings.apiKeys.expires.1y', days: 365 },
  { value: 'never', key: 'settings.apiKeys.expires.never', days: null },
];
export const DEFAULT_EXPIRY: ExpiryChoice = '30d';

export function expiresAtFor(choice: ExpiryChoice, now: Date = new Date()): Date {
  const days = EXPIRY_CHOICES.find((c) => c.value === choice)?.days;
  if (days == null) {
    const d = new Date(now);
    d.setFullYear(d.getFullYear() + NEVER_YEARS);
    return d;
  }
  return new Date(now.getTime() + days * 86_400_000);
}

/** What the Expires At column shows: "-" for a revoked key, "Never" far ahead or without expiry, else the date. */
export function expiryDisplay(key: Pick<ApiKeyLike, 'expiresAt' | 'whyInvalid'>, now: Date = new Date()): { kind: 'dash' } | { kind: 'never' } | { kind: 'date'; date: Date } {
  if (apiKeyStatus(key) === 'revoked') return { kind: 'dash' };
  if (isBeyondYears(key.expiresAt, NEVER_DISPLAY_YEARS, now)) return { kind: 'never' };
  return { kind: 'date', date: key.expiresAt! };
}
