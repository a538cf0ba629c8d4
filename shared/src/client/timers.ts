// Time, randomness and fetch are injectable so tests can observe back-off delays and polling without waiting.
// Defaults are the real platform functions; every delay value itself comes from the spec (see constants.ts).
import { MAX_WAIT_MS } from '../constants.ts';


export interface ClientTimers {
  now(): number;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
  /** Uniform in [0, 1); used for back-off jitter. */
  random(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}


export function checkedDelay(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_WAIT_MS) {
    throw new Error(`Invalid wait time: ${ms}ms (must be a finite number between 0 and ${MAX_WAIT_MS})`);
  }
  return ms;
}

export const defaultTimers: ClientTimers = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, checkedDelay(ms))),
  random: () => Math.random(),
  setInterval: (fn, ms) => {
    const handle = setInterval(fn, ms);
    // Background polling must not keep a Node/Bun process alive.
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function resolveTimers(partial?: Partial<ClientTimers>): ClientTimers {
  return { ...defaultTimers, ...partial };
}
