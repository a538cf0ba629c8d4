// `route({...})` declares an endpoint: method, path, access types, schemas and handler together. The same
// declaration drives request handling (auth → access type → validation → handler) and the OpenAPI document.
import type { Static, TSchema } from '@sinclair/typebox';
import { KnownError, KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as users from '../repo/users';
import { authenticate, type AccessType, type Auth } from './request-access';
import { validatePart } from './validate';
import { assertBodyType, parseBody } from './body';
import { assertDeclaredLength, metadataProblems } from './limits';
import { HttpResult } from './respond';
import type { ClientOrigin } from '../auth/activity';
import { resolveMe, signedInUser } from '../auth/caller';
import { lifecycle } from '../lifecycle';
import { InputProblems } from '../input-problems';
import { withRequestScope } from '../observability/security-events';
import { withRequestSpan, type RequestSpan } from '../observability/tracing';
import { recordHandlerOutcome } from './route-events';
import { recordAccessRefusal } from './access-refusals';

const PER_ACCESS = Symbol('perAccess');
export interface PerAccess<T extends TSchema> { [PER_ACCESS]: true; client?: T; server?: T; admin?: T }

/** A schema that differs by access type; `admin` falls back to `server`. */
export function perAccess<C extends TSchema, S extends TSchema, A extends TSchema = S>(schemas: { client?: C; server: S; admin?: A }): PerAccess<C | S | A> {
  return { [PER_ACCESS]: true, ...schemas, admin: schemas.admin ?? schemas.server };
}

type SchemaOrPerAccess = TSchema | PerAccess<TSchema>;
type StaticOf<S> = S extends PerAccess<infer T> ? Static<T> : S extends TSchema ? Static<S> : undefined;
/**
 * A union of request shapes (per access type, or per route variant) whose members read each other's missing fields as
 * `undefined`: a client body has no `is_verified`, and code may read it without a cast. A member stays assignable to
 * the widest shape, so one helper typed by the server schema takes any access type's body.
 */
type Readable<U> = Widen<U, KeysOf<U>>;
type KeysOf<U> = U extends object ? keyof U : never;
type Widen<U, K extends PropertyKey> = U extends object ? U & Partial<Record<Exclude<K, keyof U>, undefined>> : U;

/** `access`: the access types allowed, or 'optional' (authentication read if given; none required). */
export type Access = AccessType[] | 'optional';

export interface RouteContext<P, Q, B, A extends Access> {
  services: Services;
  auth: A extends 'optional' ? Auth | null : Auth;
  params: P;
  query: Q;
  body: B;
  request: Request;
  headers: Headers;
  url: URL;
  requestId: string;
  /** The caller's IP address, as far as GATEHOUSE_TRUST_PROXY lets proxies vouch for it (http/client-ip.ts). */
  ip: string;
  /** `ip` and the headers, for the flows that record where a session was used (auth/activity.ts). */
  origin: ClientOrigin;
  /** The signed-in user (loaded once), or null when there is no access token or the user no longer exists. */
  user(): Promise<users.UserRow | null>;
  /** The signed-in user; throws CANNOT_GET_OWN_USER_WITHOUT_USER (or `error`) when there is none. */
  requireUser(error?: () => Error): Promise<users.UserRow>;
  /** Replaces `me` with the signed-in user's id (CANNOT_GET_OWN_USER_WITHOUT_USER without one). */
  resolveUserId(idOrMe: string): string;
  /** The SCHEMA_ERROR custom routes answer when they need a signed-in user ("auth.user must be defined"). */
  userRequiredError(): Error;
  /** A SCHEMA_ERROR for this request with the given problem lines. */
  schemaError(...problems: string[]): Error;
}

/** A handler context for helpers shared by routes that require authentication. */
export type AuthedContext = RouteContext<any, any, any, AccessType[]>;

export interface RouteDef<PS extends TSchema | undefined = any, QS extends TSchema | undefined = any, BS extends SchemaOrPerAccess | undefined = any, A extends Access = Access, RS extends SchemaOrPerAccess | undefined = any> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  tags?: string[];
  access: A;
  params?: PS;
  query?: QS;
  body?: BS;
  /** Content types the body may come in (default JSON only; others answer 415 UNSUPPORTED_MEDIA_TYPE). */
  bodyTypes?: readonly string[];
  /** Checked against each JSON answer outside production (`checkResponse`); the handler's return type follows it. */
  response?: RS;
  /** Success status (default 200; creates are 201). */
  status?: number;
  /** Hidden from the OpenAPI document. */
  hidden?: boolean;
  handler(ctx: RouteContext<Readable<StaticOf<PS>>, Readable<StaticOf<QS>>, Readable<StaticOf<BS>>, A>): Promise<ResultOf<RS>>;
}

/** What a handler may return: the response schema's static type (any access type's, for `perAccess`), or an HttpResult. */
type ResultOf<RS> = RS extends undefined ? unknown : StaticOf<RS> | HttpResult;

export function route<const PS extends TSchema | undefined = undefined, const QS extends TSchema | undefined = undefined, const BS extends SchemaOrPerAccess | undefined = undefined, const A extends Access = Access, const RS extends SchemaOrPerAccess | undefined = undefined>(
  def: RouteDef<PS, QS, BS, A, RS>,
): RouteDef<PS, QS, BS, A, RS> {
  return def;
}

function pick(schema: SchemaOrPerAccess | undefined, type: AccessType | undefined): TSchema | undefined {
  if (!schema) return undefined;
  if (PER_ACCESS in schema) return (schema as PerAccess<TSchema>)[type ?? 'client'] ?? (schema as PerAccess<TSchema>).server;
  return schema as TSchema;
}

export function schemasOf(schema: SchemaOrPerAccess | undefined): { access: string; schema: TSchema }[] {
  if (!schema) return [];
  if (PER_ACCESS in schema) {
    const p = schema as PerAccess<TSchema>;
    return (['client', 'server', 'admin'] as const).flatMap((a) => (p[a] ? [{ access: a, schema: p[a]! }] : []));
  }
  return [{ access: 'any', schema: schema as TSchema }];
}

/**
 * Runs one request through a route: authentication, access type, validation, handler. While the service shuts
 * down, new requests are refused before any work, and the ones in progress are waited for (lifecycle.ts).
 */
export interface IncomingRequest {
  request: Request;
  url: URL;
  rawParams: Record<string, string>;
  requestId: string;
  /** The client IP (http/client-ip.ts, GATEHOUSE_TRUST_PROXY applied), resolved once by the server. */
  ip: string;
}

export async function runRoute(def: RouteDef, services: Services, incoming: IncomingRequest): Promise<HttpResult> {
  lifecycle.enter();
  try {
    // The scope gives security events (observability/security-events.ts) the request id and client IP; the span
    // (observability/tracing.ts, when tracing is on) names the route's pattern, never the path with its ids.
    return await withRequestSpan(`${def.method} ${def.path}`, incoming.request.headers, async (span) => {
      try {
        const result = await withRequestScope(incoming.ip, incoming.requestId, () => runCountedRoute(def, services, incoming, span));
        span.status(result.status);
        return result;
      } catch (err) {
        span.status(err instanceof KnownError || err instanceof StatusError ? err.statusCode : 500);
        throw err;
      }
    });
  } finally {
    lifecycle.leave();
  }
}

async function runCountedRoute(def: RouteDef, services: Services, { request, url, rawParams, requestId, ip }: IncomingRequest, span: RequestSpan): Promise<HttpResult> {
  // A body declared too large is refused before anything else (authentication included) is looked at.
  assertDeclaredLength(request, services.config.maxBodyBytes);
  const routeName = `${def.method} ${def.path}`;
  let auth: Auth | null = null;
  try {
    auth = await authenticate(services, request.headers);
    if (auth) span.project(auth.project.id);
    if (def.access !== 'optional') {
      if (!auth) throw new KnownErrors.AccessTypeRequired();
      if (!def.access.includes(auth.type)) throw new KnownErrors.InsufficientAccessType(auth.type, def.access);
    }
  } catch (refused) {
    if (refused instanceof KnownError) await recordAccessRefusal(services, { errorCode: refused.errorCode, route: routeName, headers: request.headers, auth });
    throw refused;
  }

  const problems: string[] = [];
  const validate = <T>(schema: TSchema | undefined, value: unknown, root: string, coerceStrings = false): T => {
    if (!schema) return undefined as T;
    const r = validatePart<T>(schema, value, root, { coerceStrings });
    problems.push(...r.problems);
    return r.value;
  };
  const decodedParams: Record<string, string> = {};
  for (const [k, v] of Object.entries(rawParams ?? {})) decodedParams[k] = safeDecode(v);
  const params = validate(def.params, decodedParams, 'params');
  // A repeated parameter is refused, not resolved to its last value (`?user_id=<other>&user_id=me` must not pass a
  // check on one value and act on the other; ASVS 5.1.1).
  if (def.query) for (const key of new Set(url.searchParams.keys())) if (url.searchParams.getAll(key).length > 1) problems.push(`query.${key} must be given at most once`);
  const query = def.query ? validate(def.query, Object.fromEntries(url.searchParams), 'query', true) : undefined;
  const bodySchema = pick(def.body, auth?.type);
  if (bodySchema) assertBodyType(request, def.bodyTypes);
  const body = bodySchema ? validate(bodySchema, await parseBody(request, services.config.maxBodyBytes), 'body') : undefined;
  if (bodySchema) problems.push(...metadataProblems(body, services.config.metadataLimits));
  const schemaError = (...lines: string[]) =>
    new KnownErrors.SchemaError(`Request validation failed on ${request.method} ${url.pathname}:\n${lines.map((p) => `  - ${p}`).join('\n')}`);
  if (problems.length) throw schemaError(...problems);

  // One load per request, shared with the use cases (auth/caller.ts `signedInUser`).
  const user = () => (auth ? signedInUser(services, auth) : Promise.resolve(null));
  const ctx: RouteContext<any, any, any, Access> = {
    services, auth: auth as Auth, params, query, body, request, headers: request.headers, url, requestId,
    ip,
    origin: { ip, headers: request.headers, proxyTrusted: services.config.trustProxy !== false },
    user,
    async requireUser(error) {
      const u = await user();
      if (!u) throw error ? error() : new KnownErrors.CannotGetOwnUserWithoutUser();
      return u;
    },
    schemaError,
    userRequiredError: () => schemaError('auth.user must be defined'),
    resolveUserId: (idOrMe) => resolveMe({ userId: auth?.userId }, idOrMe),
  };
  const handled = { def, auth, params, query, body };
  let result: unknown;
  try {
    result = await def.handler(ctx);
  } catch (thrown) {
    const error = thrown instanceof InputProblems ? schemaError(...thrown.problems) : thrown;
    await recordHandlerOutcome(services, handled, { error });
    if (error instanceof KnownError) await recordAccessRefusal(services, { errorCode: error.errorCode, route: routeName, headers: request.headers, auth });
    throw error;
  }
  await recordHandlerOutcome(services, handled, { result });
  if (result instanceof HttpResult) return result;
  if (!services.config.isProduction) checkResponse(def, auth?.type, result, request.method, url.pathname);
  return HttpResult.json(result, def.status ?? 200);
}

/**
 * Development and tests only: the JSON a handler returns must match the route's response schema, as the client
 * library's types assume. A mismatch is a bug of ours, so it fails the request with a 500 (a test sees it) and logs
 * the route and the paths that differ. Production skips the check: it costs a serialisation per request.
 */
export function checkResponse(def: RouteDef, type: AccessType | undefined, result: unknown, method: string, pathname: string) {
  const schema = pick(def.response, type);
  if (!schema) return;
  // Compared as the client receives it (Dates as strings, undefined fields absent).
  const wire = result === undefined ? undefined : JSON.parse(JSON.stringify(result));
  const { problems } = validatePart(schema, wire, 'response');
  if (problems.length) {
    throw new ResponseMismatch(`Response validation failed on ${def.method} ${def.path} (${method} ${pathname}, ${type ?? 'no'} access):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export class ResponseMismatch extends Error {
  override name = 'ResponseMismatch';
}

function safeDecode(v: string): string {
  try { return decodeURIComponent(v); } catch { return v; }
}
