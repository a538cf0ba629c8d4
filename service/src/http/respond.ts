// Turning results and errors into HTTP responses, in one place.
import { KnownError, StatusError } from '@gatehouse/shared/known-errors';
import { RateLimited } from '../auth/rate-limits';
import { ServiceUnavailable } from '../lifecycle';
import { isDatabaseUnavailable } from '../db/errors';
import { STACK_HEADERS } from '@gatehouse/shared/constants';

/** The driver's code and message of a database outage, for the log (drizzle's wrapper carries the SQL: skipped). */
function describeUnavailable(err: unknown): string {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, d = 0; e && d < 5; e = e.cause as typeof e, d++) {
    if (typeof e.code === 'string') return `${e.code}: ${String(e.message)}`;
  }
  return 'no code';
}

// CORS (protocol-auth §1.9). Browsers read the allow-methods/-headers and max-age only from the preflight answer,
// so actual responses carry just what they need (origin and exposed headers): ~700 bytes less on every response.
export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'content-type, x-stack-actual-status, x-stack-known-error, retry-after',
};

export const CORS_PREFLIGHT_HEADERS: Record<string, string> = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-max-age': '86400',
  'access-control-allow-headers': [
    'content-type', 'authorization', STACK_HEADERS.projectId, STACK_HEADERS.overrideErrorStatus, STACK_HEADERS.randomNonce,
    STACK_HEADERS.clientVersion, STACK_HEADERS.disableArtificialDevelopmentDelay, STACK_HEADERS.accessType,
    STACK_HEADERS.publishableClientKey, STACK_HEADERS.secretServerKey, STACK_HEADERS.superSecretAdminKey,
    STACK_HEADERS.adminAccessToken, STACK_HEADERS.refreshToken, STACK_HEADERS.accessToken, 'baggage', 'sentry-trace',
    'x-vercel-protection-bypass',
  ].join(', '),
};

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

/** A handler result that is not a plain JSON body: a text body, a redirect, custom headers or status, a stream. */
export class HttpResult {
  constructor(
    readonly status: number,
    readonly body: string | ReadableStream<Uint8Array> | null,
    readonly headers: Record<string, string> = {},
  ) {}
  /**
   * A body written as it is read: the next chunk is asked for only when the client has taken the previous ones
   * (a pull stream), so a slow reader holds the producer back instead of the text piling up in memory.
   */
  static stream(chunks: AsyncIterable<string>, headers: Record<string, string>) {
    const iterator = chunks[Symbol.asyncIterator]();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() { await iterator.return?.(); },
    }, { highWaterMark: 0 });
    return new HttpResult(200, body, headers);
  }
  static text(text: string, status = 200) { return new HttpResult(status, text, { 'content-type': TEXT_TYPE }); }
  static json(value: unknown, status = 200, headers: Record<string, string> = {}) {
    return new HttpResult(status, JSON.stringify(value), { 'content-type': JSON_TYPE, ...headers });
  }
  static redirect(location: string, headers: Record<string, string> = {}) {
    return new HttpResult(307, null, { location, ...headers });
  }
}

export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Buffer.from(bytes).toString('base64url');
}

/**
 * Sent with every API response (ASVS 14.4): no MIME sniffing, no referrer leaking URLs with codes, and HSTS when the
 * public URL is https (`setStrictTransportSecurity`, called at start).
 */
export const SECURITY_HEADERS: Record<string, string> = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

export function setStrictTransportSecurity(publicUrl: string) {
  if (publicUrl.startsWith('https://')) SECURITY_HEADERS['strict-transport-security'] = 'max-age=31536000';
  else delete SECURITY_HEADERS['strict-transport-security'];
}

export function baseHeaders(requestId: string): Record<string, string> {
  return { ...CORS_HEADERS, ...SECURITY_HEADERS, [STACK_HEADERS.requestId]: requestId, 'cache-control': 'no-store, max-age=0' };
}

/** Renders any thrown value. Unexpected errors are logged with the request id and answered without details. */
export function errorResult(err: unknown, requestId: string, opts: { isProduction: boolean; method: string; url: string }): HttpResult {
  if (err instanceof KnownError) {
    const retryAfter: Record<string, string> = err instanceof RateLimited ? { 'retry-after': String(err.retryAfterSeconds) } : {};
    return HttpResult.json(err.toJSON(), err.statusCode, { [STACK_HEADERS.knownError]: err.errorCode, ...retryAfter });
  }
  if (isDatabaseUnavailable(err)) {
    console.error(`[${requestId}] ${opts.method} ${opts.url}: database unavailable (${describeUnavailable(err)})`);
    err = new ServiceUnavailable('The service is temporarily unavailable (its database cannot be reached). Please retry in a moment.', 2);
  }
  if (err instanceof ServiceUnavailable) {
    return new HttpResult(503, err.message, { 'content-type': TEXT_TYPE, 'retry-after': String(err.retryAfterSeconds) });
  }
  if (err instanceof StatusError) return HttpResult.text(err.message, err.statusCode);
  console.error(`[${requestId}] ${opts.method} ${opts.url} failed:`, err);
  const detail = opts.isProduction ? '' : `\n\n${err instanceof Error ? err.message : String(err)}`;
  return HttpResult.text(`Something went wrong. Please make sure the data you entered is correct.\n\nRequest ID: ${requestId}${detail}`, 500);
}

/** Builds the final Response, applying `x-stack-override-error-status` (4xx/5xx become 200 + x-stack-actual-status). */
export function toResponse(result: HttpResult, requestId: string, overrideErrorStatus: boolean): Response {
  const headers = { ...baseHeaders(requestId), ...result.headers };
  let status = result.status;
  if (overrideErrorStatus && status >= 400 && status <= 599) {
    headers[STACK_HEADERS.actualStatus] = String(status);
    status = 200;
  }
  return new Response(result.body, { status, headers });
}
