// The OpenAPI 3.1 document, generated from the same route declarations and TypeBox schemas that validate requests.
// Keys and tokens are security schemes (one per x-stack-* header), each operation's `security` follows its access
// types; the project id and access type are typed header parameters; schemas exported by the shared package keep
// their names in `components.schemas`; each operation lists the known errors it may answer, by status.
import { Kind, OptionalKind, type TSchema } from '@sinclair/typebox';
import { schemasOf, type RouteDef } from './route';
import { knownErrorsOf } from './openapi-errors';
import * as apiKeys from '@gatehouse/shared/schemas/api-keys';
import * as cliAuth from '@gatehouse/shared/schemas/cli-auth';
import * as common from '@gatehouse/shared/schemas/common';
import * as contactChannels from '@gatehouse/shared/schemas/contact-channels';
import * as emailTemplates from '@gatehouse/shared/schemas/email-templates';
import * as emails from '@gatehouse/shared/schemas/emails';
import * as invitations from '@gatehouse/shared/schemas/invitations';
import * as metrics from '@gatehouse/shared/schemas/metrics';
import * as mfa from '@gatehouse/shared/schemas/mfa';
import * as oauth from '@gatehouse/shared/schemas/oauth';
import * as passkeys from '@gatehouse/shared/schemas/passkeys';
import * as permissions from '@gatehouse/shared/schemas/permissions';
import * as projects from '@gatehouse/shared/schemas/projects';
import * as sessions from '@gatehouse/shared/schemas/sessions';
import * as teamMembers from '@gatehouse/shared/schemas/team-members';
import * as teams from '@gatehouse/shared/schemas/teams';
import * as userApiKeys from '@gatehouse/shared/schemas/user-api-keys';
import * as users from '@gatehouse/shared/schemas/users';
import * as webhooks from '@gatehouse/shared/schemas/webhooks';

const SCHEMA_MODULES = [apiKeys, cliAuth, common, contactChannels, emailTemplates, emails, invitations, metrics, mfa, oauth, passkeys,
  permissions, projects, sessions, teamMembers, teams, userApiKeys, users, webhooks];

type Json = Record<string, unknown>;
type AccessType = 'client' | 'server' | 'admin';

const SECURITY_SCHEMES = {
  publishableClientKey: { type: 'apiKey', in: 'header', name: 'x-stack-publishable-client-key', description: 'Client access: the project\'s publishable client key.' },
  secretServerKey: { type: 'apiKey', in: 'header', name: 'x-stack-secret-server-key', description: 'Server access: the project\'s secret server key (never in a browser).' },
  superSecretAdminKey: { type: 'apiKey', in: 'header', name: 'x-stack-super-secret-admin-key', description: 'Admin access: the project\'s super secret admin key.' },
  adminAccessToken: { type: 'apiKey', in: 'header', name: 'x-stack-admin-access-token', description: 'Admin access as the project\'s owner: an access token of an internal-project user who owns the project (instead of a key).' },
  accessToken: { type: 'apiKey', in: 'header', name: 'x-stack-access-token', description: 'The signed-in user: an access token (a JWT, 10 minutes by default).' },
  refreshToken: { type: 'apiKey', in: 'header', name: 'x-stack-refresh-token', description: 'The session\'s refresh token (refresh and sign-out).' },
} as const;
type SchemeName = keyof typeof SECURITY_SCHEMES;

/** Routes that read the refresh-token header. */
const READS_REFRESH_TOKEN = new Set(['POST /auth/sessions/current/refresh', 'POST /auth/password/update']);
/** Browser navigations answered with a redirect (protocol-auth §1: redirects are 307). */
const REDIRECTS = new Set(['GET /auth/oauth/authorize/:provider_id', 'GET /auth/oauth/callback/:provider_id', 'POST /auth/oauth/callback/:provider_id']);

function securityFor(def: RouteDef): Record<string, string[]>[] {
  const key = `${def.method} ${def.path}`;
  const req = (...names: SchemeName[]) => Object.fromEntries(names.map((n) => [n, []]));
  const byAccess: Record<AccessType, Record<string, string[]>[]> = {
    client: [req('publishableClientKey'), req('publishableClientKey', 'accessToken')],
    server: [req('secretServerKey'), req('secretServerKey', 'accessToken')],
    admin: [req('superSecretAdminKey'), req('adminAccessToken')],
  };
  if (READS_REFRESH_TOKEN.has(key)) {
    byAccess.client.push(req('publishableClientKey', 'refreshToken'), req('publishableClientKey', 'accessToken', 'refreshToken'));
    byAccess.server.push(req('secretServerKey', 'refreshToken'), req('secretServerKey', 'accessToken', 'refreshToken'));
  }
  if (def.access === 'optional') return [{}, ...byAccess.client, ...byAccess.server, ...byAccess.admin];
  return def.access.flatMap((a) => byAccess[a]);
}

/** `post /users/:user_id` -> `postUsersByUserId`. */
function operationIdOf(def: RouteDef): string {
  const pascal = (s: string) => s.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  const parts = def.path.split('/').filter(Boolean).map((seg) => (seg.startsWith(':') ? `By${pascal(seg.slice(1))}` : pascal(seg)));
  return def.method.toLowerCase() + (parts.join('') || 'Root');
}

class SchemaRegistry {
  readonly components: Record<string, unknown> = {};
  private readonly names = new Map<object, string>();
  private readonly taken = new Set<string>();

  constructor() {
    for (const mod of SCHEMA_MODULES) {
      for (const [name, value] of Object.entries(mod)) {
        if (value && typeof value === 'object' && Kind in value && !this.names.has(value)) this.names.set(value, name);
      }
    }
  }

  /** A `$ref` to the schema under its exported name (or `fallback`), its JSON Schema put in components once. */
  ref(schema: TSchema, fallback: string): Json {
    let name = this.names.get(schema);
    if (!name) {
      name = this.unique(fallback);
      this.names.set(schema, name);
    }
    if (!(name in this.components)) {
      this.components[name] = {};
      this.taken.add(name);
      this.components[name] = this.convert(schema, schema);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  private unique(base: string): string {
    let name = base;
    for (let i = 2; this.taken.has(name) || [...this.names.values()].includes(name); i++) name = `${base}${i}`;
    this.taken.add(name);
    return name;
  }

  /** TypeBox schemas are JSON Schema: drop the validator-only hints and refer to named schemas inside. */
  private convert(node: unknown, root: unknown): unknown {
    if (Array.isArray(node)) return node.map((n) => this.convert(n, root));
    if (!node || typeof node !== 'object') return node;
    if (node !== root && this.names.has(node) && Kind in node) return this.ref(node as TSchema, 'Schema');
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'patternMessage' || k === 'emptyMessage' || k === 'safeText' || k === 'refuseReservedKeys' || v === undefined) continue;
      out[k] = this.convert(v, root);
    }
    return out;
  }

  inline(schema: TSchema): unknown {
    return this.convert(schema, schema);
  }
}

function schemaOf(reg: SchemaRegistry, schema: RouteDef['body'], base: string): Json | undefined {
  const variants = schemasOf(schema);
  if (variants.length === 0) return undefined;
  if (variants.length === 1) return reg.ref(variants[0].schema, base);
  // Per access type; the variants overlap (admin sees what server sees), so anyOf, not oneOf.
  const seen = new Map<TSchema, Json>();
  for (const v of variants) if (!seen.has(v.schema)) seen.set(v.schema, reg.ref(v.schema, `${base}${v.access[0].toUpperCase()}${v.access.slice(1)}`));
  return seen.size === 1 ? [...seen.values()][0] : { anyOf: [...seen.values()] };
}

function knownErrorResponses(def: RouteDef): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const e of knownErrorsOf(def)) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e.code]);
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of byStatus) {
    responses[String(status)] = {
      description: `Known error${codes.length > 1 ? 's' : ''}: ${codes.join(', ')}`,
      headers: { 'x-stack-known-error': { description: 'The error code (also in the body).', required: true, schema: { type: 'string', enum: codes } } },
      content: {
        'application/json': {
          schema: {
            allOf: [{ $ref: '#/components/schemas/KnownError' }, { type: 'object', properties: { code: { type: 'string', enum: codes } } }],
          },
        },
      },
    };
  }
  return responses;
}

function headerParameters(def: RouteDef): unknown[] {
  const access = def.access === 'optional' ? ['client', 'server', 'admin'] : def.access;
  const required = def.access !== 'optional';
  return [
    { name: 'x-stack-project-id', in: 'header', required, description: 'The project (`internal` for Gatehouse\'s own accounts).', schema: { type: 'string' }, example: 'internal' },
    { name: 'x-stack-access-type', in: 'header', required, description: 'Which key (or admin access token) authenticates the request.', schema: { type: 'string', enum: access } },
  ];
}

export function buildOpenApiDocument(routes: RouteDef[], _serverUrl?: string) {
  const reg = new SchemaRegistry();
  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  for (const r of routes) {
    if (r.hidden) continue;
    const path = r.path === '' ? '/' : r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    let operationId = operationIdOf(r);
    for (let i = 2; ids.has(operationId); i++) operationId = `${operationIdOf(r)}${i}`;
    ids.add(operationId);
    const Pascal = operationId[0].toUpperCase() + operationId.slice(1);

    const parameters: unknown[] = headerParameters(r);
    for (const [name, s] of Object.entries((r.params as any)?.properties ?? {})) parameters.push({ name, in: 'path', required: true, schema: reg.inline(s as TSchema) });
    const q = r.query as any;
    for (const [name, s] of Object.entries(q?.properties ?? {})) parameters.push({ name, in: 'query', required: (q.required ?? []).includes(name), schema: reg.inline(s as TSchema) });
    const body = schemaOf(reg, r.body, `${Pascal}Request`);
    const response = schemaOf(reg, r.response, `${Pascal}Response`);
    const key = `${r.method} ${r.path}`;
    const success = REDIRECTS.has(key)
      ? { '307': { description: 'Redirect (a browser navigation)', headers: { location: { description: 'Where the browser goes next', schema: { type: 'string' } } } } }
      : { [String(r.status ?? 200)]: { description: 'Success', ...(response ? { content: { 'application/json': { schema: response } } } : {}) } };
    (paths[path] ??= {})[r.method.toLowerCase()] = {
      operationId,
      summary: r.summary,
      tags: r.tags ?? ['Meta'],
      description: r.access === 'optional' ? 'Authentication optional.' : `Access types: ${r.access.join(', ')}.`,
      parameters,
      security: securityFor(r),
      ...(body ? { requestBody: { required: !(r.body as any)?.[OptionalKind], content: { 'application/json': { schema: body } } } } : {}),
      responses: { ...success, ...knownErrorResponses(r) },
    };
  }
  const tags = [...new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((o) => (o as { tags: string[] }).tags)))].sort();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse API', version: '1.0.0',
      description: "Gatehouse speaks Stack Auth's REST API v1 (SDK 2.8.3). Every request names the project (`x-stack-project-id`) and the access type (`x-stack-access-type`: client, server or admin) and carries that access type's key; a signed-in user adds `x-stack-access-token`. Errors are known errors: a JSON body `{code, details?, error}` with the code in the `x-stack-known-error` header.",
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // Relative: the API is where this document is, behind whatever origin and proxy serve it.
    servers: [{ url: '/api/v1' }],
    tags: tags.map((name) => ({ name })),
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: {
        KnownError: {
          type: 'object', required: ['code', 'error'],
          properties: {
            code: { type: 'string', description: 'The known-error code, e.g. SCHEMA_ERROR.' },
            error: { type: 'string', description: 'A human-readable message.' },
            details: { type: 'object', additionalProperties: true, description: 'Code-specific details.' },
          },
        },
        ...reg.components,
      },
    },
    paths,
  };
}

export { docsAsset, docsPage } from './docs-page';
