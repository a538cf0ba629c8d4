// The known-error catalogue (every class, about 5.7 KB gzipped) is loaded with the first known error a response
// carries rather than with the client library, so that a page that gets none (a sign-in page until a wrong password)
// doesn't load it. Decoding waits for it, so a decoded error is always an instance of its catalogue class; the
// library's own checks go by wire code (`hasCode`), which needs no class. Code that imports
// `@gatehouse/shared/known-errors` (the service, an app's `instanceof KnownErrors.X`) loads it statically as before.
import { KnownError } from '../known-errors/base.ts';
import type { KnownErrorName, KnownErrors } from '../known-errors.ts';

let loading: Promise<typeof import('../known-errors.ts')> | undefined;

/** The catalogue module, imported once; a failed load (network) is retried by the next caller. */
export function loadKnownErrors(): Promise<typeof import('../known-errors.ts')> {
  loading ??= import('../known-errors.ts').catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/** The wire code of every catalogue class. */
export type KnownErrorCode = KnownErrors[KnownErrorName]['errorCode'];
/** The catalogue error with that wire code (or codes). */
export type KnownErrorWithCode<C extends KnownErrorCode> = Extract<KnownErrors[KnownErrorName], { readonly errorCode: C }>;

/** Type guard for the catalogue errors with one of the given wire codes (each code has exactly one class). */
export function hasCode<const C extends KnownErrorCode[]>(...codes: C) {
  return (err: unknown): err is KnownErrorWithCode<C[number]> =>
    err instanceof KnownError && (codes as readonly string[]).includes(err.errorCode);
}
