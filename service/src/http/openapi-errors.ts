// Which known errors each route may answer, for the OpenAPI document: the authentication errors of its access
// types, the validation errors of its schemas, and the `KnownErrors.X` its handler (and the functions it calls,
// four levels deep: its use case, and three below that; found by name in the service's sources) throws.
// Over-approximates a little, never invents a code. The binary holds no sources: scripts/build-binary.mjs writes
// every route's errors, found here at build time (`errorsOfRoutes`), into a file it embeds (BUILT_ERRORS).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KnownErrors, type KnownErrorName } from '@gatehouse/shared/known-errors';
import type { RouteDef } from './route';
import { REPO_ROOT } from '../install-root';

// The service's sources and the shared protocol rules (password rules, codes, ...) they call.
const SOURCES = [join(REPO_ROOT, 'service/src'), join(REPO_ROOT, 'shared/src/rules')];
/** In the binary: every route's errors by `routeKey`, as `errorsOfRoutes` found them when it was built. */
export const BUILT_ERRORS = 'service/openapi-errors.json';
let builtErrors: Record<string, RouteError[]> | undefined;

const AUTH_ANY: KnownErrorName[] = ['ProjectKeyWithoutAccessType', 'InvalidAccessType', 'AccessTypeWithoutProjectId', 'ProjectNotFound',
  'UnparsableAccessToken', 'AccessTokenExpired', 'InvalidProjectForAccessToken'];
const AUTH_BY_ACCESS: Record<string, KnownErrorName[]> = {
  client: ['ClientAuthenticationRequired', 'InvalidPublishableClientKey'],
  server: ['ServerAuthenticationRequired', 'InvalidSecretServerKey'],
  admin: ['AdminAuthenticationRequired', 'InvalidSuperSecretAdminKey', 'UnparsableAdminAccessToken', 'AdminAccessTokenExpired',
    'InvalidProjectForAdminAccessToken', 'AdminAccessTokenIsNotAdmin'],
};
const REQUIRED_ACCESS: KnownErrorName[] = ['AccessTypeRequired', 'InsufficientAccessType'];
const VALIDATION: KnownErrorName[] = ['SchemaError'];
const WITH_BODY: KnownErrorName[] = ['BodyParsingError', 'RequestBodyTooLarge'];
/** What the route context's helpers throw, by helper name. */
const CONTEXT_HELPERS: Record<string, KnownErrorName[]> = {
  requireUser: ['CannotGetOwnUserWithoutUser'], resolveUserId: ['CannotGetOwnUserWithoutUser'],
  schemaError: ['SchemaError'], userRequiredError: ['SchemaError'],
};

/**
 * A call by name. The query builder's own methods (`db.update(`, `tx.insert(`...) are not followed: they share their
 * names with repository functions (`update`, `insert`) whose errors they do not throw.
 */
const CALL = /(?<!\b(?:db|tx)\.)\b(\w+)\(/g;

let functionErrors: Map<string, { errors: Set<string>; calls: Set<string> }> | undefined;

/** Every `function name(...) {...}` of the service's sources: the KnownErrors it names and the functions it calls. */
function indexSources() {
  const index = new Map<string, { errors: Set<string>; calls: Set<string> }>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) {
        const text = readFileSync(p, 'utf8');
        for (const m of text.matchAll(/^(?:export )?(?:async )?function (\w+)\b[\s\S]*?\n\}[ \t]*$/gm)) {
          const entry = index.get(m[1]) ?? { errors: new Set(), calls: new Set() };
          for (const e of m[0].matchAll(/KnownErrors\.(\w+)/g)) entry.errors.add(e[1]);
          for (const c of m[0].matchAll(CALL)) if (c[1] !== m[1]) entry.calls.add(c[1]);
          index.set(m[1], entry);
        }
      }
    }
  };
  SOURCES.forEach(walk);
  return index;
}

function errorsOfSource(text: string, depth: number, index: NonNullable<typeof functionErrors>, into: Set<string>, seen: Set<string>) {
  for (const e of text.matchAll(/KnownErrors\.(\w+)/g)) into.add(e[1]);
  for (const c of text.matchAll(CALL)) {
    const name = c[1];
    if (Object.hasOwn(CONTEXT_HELPERS, name)) CONTEXT_HELPERS[name].forEach((h) => into.add(h));
    if (depth === 0 || seen.has(name)) continue;
    seen.add(name);
    const fn = index.get(name);
    if (!fn) continue;
    fn.errors.forEach((e) => into.add(e));
    errorsOfSource([...fn.calls].map((n) => `${n}(`).join(' '), depth - 1, index, into, seen);
  }
}

export interface RouteError { code: string; status: number }

export const routeKey = (def: RouteDef) => `${def.method} ${def.path}`;

export function knownErrorsOf(def: RouteDef): RouteError[] {
  if (Bun.isStandaloneExecutable) {
    builtErrors ??= JSON.parse(readFileSync(join(REPO_ROOT, BUILT_ERRORS), 'utf8')) as Record<string, RouteError[]>;
    const built = builtErrors[routeKey(def)];
    if (!built) throw new Error(`The binary was built without the known errors of ${routeKey(def)} (${BUILT_ERRORS})`);
    return built;
  }
  functionErrors ??= indexSources();
  const names = new Set<string>(AUTH_ANY);
  const access = def.access === 'optional' ? ['client', 'server', 'admin'] : def.access;
  for (const a of access) AUTH_BY_ACCESS[a]?.forEach((n) => names.add(n));
  if (def.access !== 'optional') REQUIRED_ACCESS.forEach((n) => names.add(n));
  if (def.params || def.query || def.body) VALIDATION.forEach((n) => names.add(n));
  if (def.body) WITH_BODY.forEach((n) => names.add(n));
  errorsOfSource(def.handler.toString(), 4, functionErrors, names, new Set());
  const out = new Map<string, RouteError>();
  for (const n of names) {
    const cls = (KnownErrors as Record<string, { code?: string; status?: number }>)[n];
    if (cls?.code && cls.status) out.set(cls.code, { code: cls.code, status: cls.status });
  }
  return [...out.values()].sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}

/** Every route's errors by `routeKey`: what the binary's build embeds as BUILT_ERRORS. */
export function errorsOfRoutes(routes: RouteDef[]): Record<string, RouteError[]> {
  return Object.fromEntries(routes.map((def) => [routeKey(def), knownErrorsOf(def)]));
}
