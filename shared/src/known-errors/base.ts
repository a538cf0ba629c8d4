// Core of the known-error catalogue: the KnownError base class, the per-code class factory and the
// code -> class registry. The codes themselves live in ./catalogue.ts.

export type KnownErrorJson = { code: string; details?: Record<string, unknown>; error: string };

/** Abstract families (never sent on the wire; the SDK branches on them). */
export type KnownErrorFamily =
  | 'PROJECT_AUTHENTICATION_ERROR'
  | 'INVALID_PROJECT_AUTHENTICATION'
  | 'INVALID_ADMIN_ACCESS_TOKEN'
  | 'PROJECT_AUTHENTICATION_REQUIRED'
  | 'SESSION_AUTHENTICATION_ERROR'
  | 'INVALID_SESSION_AUTHENTICATION'
  | 'INVALID_ACCESS_TOKEN'
  | 'REFRESH_TOKEN_ERROR'
  | 'PASSWORD_REQUIREMENTS_NOT_MET'
  | 'VERIFICATION_ERROR'
  | 'API_KEY_NOT_VALID';

/**
 * Constructor type of one catalogue entry; `D` is the shape of `details` it renders, `C` its code and `F` its
 * families, kept as literal types so that results can name exactly the errors they return.
 */
export type KnownErrorClass<
  A extends unknown[] = any[],
  D extends Record<string, unknown> | undefined = any,
  C extends string = string,
  F extends KnownErrorFamily = KnownErrorFamily,
> = {
  new (...args: A): KnownError & { readonly errorCode: C; readonly details?: D };
  readonly code: C;
  readonly status: number;
  readonly families: readonly F[];
  // `instanceof` narrows to the prototype's type: keep it as precise as the instances.
  readonly prototype: KnownError & { readonly errorCode: C; readonly details?: D };
  fromJSON(json: KnownErrorJson): KnownError;
};

// Private constructor path used by fromJSON: skips the subclass' argument logic.
const FROM_JSON = Symbol('KnownError.fromJSON');

const registry = new Map<string, KnownErrorClass>();
/** Every catalogue class by wire code. */
export const knownErrorByCode: ReadonlyMap<string, KnownErrorClass> = registry;

export class KnownError extends Error {
  static readonly families: readonly KnownErrorFamily[] = [];
  declare readonly errorCode: string;
  declare readonly statusCode: number;
  declare readonly details?: Record<string, unknown>;

  constructor(statusCode: number, errorCode: string, message: string, details?: Record<string, unknown>) {
    super(message);
    initKnownError(this, statusCode, errorCode, details);
  }

  toJSON(): KnownErrorJson {
    return this.details === undefined
      ? { code: this.errorCode, error: this.message }
      : { code: this.errorCode, details: this.details, error: this.message };
  }

  /**
   * Rebuilds the specific subclass from a response body (so `instanceof KnownErrors.X` works). The subclass'
   * argument logic is bypassed on purpose: wire `details` may be partial or missing (the reference server
   * omits some), and the server's message is kept verbatim.
   */
  static fromJSON(json: KnownErrorJson): KnownError {
    const code = typeof json?.code === 'string' ? json.code : String(json?.code);
    const cls = registry.get(code);
    if (!cls) {
      // client-library §4.5.3 / §8 #6: the reference sentence verbatim (it names "Stack"), then the body's `error`
      // text where 2.8.3 printed `undefined`.
      throw new Error(
        `Unknown KnownError code. You may need to update your version of Stack to see more detailed information. ${code}: ${json?.error}`,
      );
    }
    const message = typeof json.error === 'string' ? json.error : '';
    const details = json.details !== null && typeof json.details === 'object' ? json.details : undefined;
    return new (cls as unknown as new (...args: unknown[]) => KnownError)(FROM_JSON, message, details);
  }
}

function initKnownError(err: KnownError, statusCode: number, errorCode: string, details: Record<string, unknown> | undefined) {
  const target = err as { -readonly [K in 'errorCode' | 'statusCode' | 'details' | 'name']: KnownError[K] };
  target.name = `KnownError<${errorCode}>`;
  target.errorCode = errorCode;
  target.statusCode = statusCode;
  if (details !== undefined) target.details = details;
}

export function isKnownErrorInFamily(err: unknown, family: KnownErrorFamily | string): boolean {
  if (!(err instanceof KnownError)) return false;
  return (err.constructor as typeof KnownError).families.includes(family as KnownErrorFamily);
}

/** Plain-text (non-catalogue) HTTP error: rendered as `text/plain` with the message as body. */
export class StatusError extends Error {
  constructor(readonly statusCode: number, message: string) {
    super(message);
    this.name = 'StatusError';
  }
}

// Same class names as Stack's SDK (which spells OAuth and WebAuthn with inner capitals).
function pascalCase(code: string): string {
  return code.toLowerCase().split('_')
    .map((w) => (w === 'oauth' ? 'OAuth' : w === 'webauthn' ? 'WebAuthn' : w[0]!.toUpperCase() + w.slice(1)))
    .join('');
}

/**
 * Declares one catalogue entry. `build` maps the natural constructor arguments to the message and the
 * wire `details` (omit details by returning a 1-tuple).
 */
export function defineKnownError<
  A extends unknown[],
  D extends Record<string, unknown> | undefined = undefined,
  const C extends string = string,
  const F extends KnownErrorFamily = never,
>(
  code: C,
  status: number,
  families: readonly F[],
  build: (...args: A) => readonly [message: string, details?: D],
): KnownErrorClass<A, D, C, F> {
  const cls = class extends KnownError {
    static readonly code = code;
    static readonly status = status;
    static override readonly families = families;
    constructor(...args: A) {
      const raw = args as unknown[];
      const [message, details] = raw[0] === FROM_JSON
        ? [raw[1] as string, raw[2] as D]
        : build(...args);
      super(status, code, message, details);
    }
  };
  Object.defineProperty(cls, 'name', { value: pascalCase(code) });
  if (registry.has(code)) throw new Error(`Duplicate KnownError code ${code}`);
  registry.set(code, cls as KnownErrorClass);
  return cls as unknown as KnownErrorClass<A, D, C, F>;
}
