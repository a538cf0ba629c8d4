// Small shared helpers for the model factories.
import { isKnownErrorInFamily, type KnownErrorFamily } from '../../known-errors/base.ts';
import type { KnownError, KnownErrorInFamily } from '../../known-errors.ts';
import type { ClientCore } from '../core.ts';
import type { InternalSession } from '../session.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type ReadonlyJson = null | boolean | number | string | readonly ReadonlyJson[] | { readonly [key: string]: ReadonlyJson };

/** Symbol under which objects expose their cached reads (for the React hooks of the account kit). */
export const cachedReadsSymbol: unique symbol = Symbol.for('Gatehouse--cached-reads');

/** `items` of a list response (none when the answer has no list). */
export function items<T>(json: { items?: T[] } | null | undefined): T[] {
  return Array.isArray(json?.items) ? json.items : [];
}

export function optionalDate(ms: number | null | undefined): Date | undefined {
  return ms === null || ms === undefined || ms === 0 ? undefined : new Date(ms);
}

/**
 * Drops undefined members (JSON would drop them anyway; keeps request bodies readable in tests). The result has the
 * input's type: a request body is built as its schema's type (wire.ts), whose optional members may be left out.
 */
export function compact<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
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

/** `(team, id)` / `(id)` and `(team, opts)` / `(opts)` overloads. */
export function splitScope<T>(a: unknown, b: T): [{ id: string } | null, T | undefined] {
  return typeof a === 'object' && a !== null && 'id' in a ? [a as { id: string }, b] : [null, a as T];
}

/** Runs `fn`; an error matching one of `predicates` is returned instead of thrown. */
export async function catchErrors(fn: () => Promise<unknown>, ...predicates: ((err: unknown) => err is KnownError)[]): Promise<KnownError | undefined> {
  try {
    await fn();
    return undefined;
  } catch (err) {
    for (const matches of predicates) if (matches(err)) return err;
    throw err;
  }
}
