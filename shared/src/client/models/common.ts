// Small shared helpers for the model factories.
import { isKnownErrorInFamily, type KnownErrorFamily } from '../../known-errors/base.ts';
import type { KnownErrorInFamily } from '../../known-errors.ts';
import type { ClientCore } from '../core.ts';
import type { InternalSession } from '../session.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type ReadonlyJson = null | boolean | number | string | readonly ReadonlyJson[] | { readonly [key: string]: ReadonlyJson };

/** Symbol under which objects expose their cached reads (for the React hooks of the account kit). */
export const cachedReadsSymbol: unique symbol = Symbol.for('Gatehouse--cached-reads');

/** `items` of a list response. */
export function items<T = any>(json: any): T[] {
  return Array.isArray(json?.items) ? json.items : [];
}

export function optionalDate(ms: number | null | undefined): Date | undefined {
  return ms === null || ms === undefined || ms === 0 ? undefined : new Date(ms);
}

/** Drops undefined members (JSON would drop them anyway; keeps request bodies readable in tests). */
export function compact<T extends Record<string, unknown>>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined && v !== null) as [string, string | number | boolean][];
  if (entries.length === 0) return '';
  return '?' + new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString();
}

/** The context every session-bound (client) model needs. */
export type ClientContext = { core: ClientCore; session: InternalSession };

/** Server models act for any user without a session. */
export type ServerContext = { core: ClientCore; access: 'server' | 'admin' };

/** Type guard for a known-error family (e.g. `VERIFICATION_ERROR`). */
export function inFamily<F extends KnownErrorFamily>(family: F) {
  return (err: unknown): err is KnownErrorInFamily<F> => isKnownErrorInFamily(err, family);
}
