// The SCIM 2.0 endpoints of each team (RFC 7644; issue 28) at `{public URL}/scim/v2/{team id}`: a bearer token of
// the team (scim/tokens.ts), bodies in application/scim+json (or JSON), answers and errors in SCIM's own format. Each
// handler decodes, calls one use case (scim/users.ts, scim/groups.ts) and encodes with presenters/scim.ts.
import type { Elysia } from 'elysia';
import { KnownError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import { authenticateScim, type ScimCaller } from '../scim/tokens';
import { ScimError } from '../scim/scim-error';
import { deleteScimUser, getScimUser, listScimUsers, patchScimUser, provisionScimUser, replaceScimUser, scimPage } from '../scim/users';
import { createScimGroup, deleteScimGroup, getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup } from '../scim/groups';
import { isDatabaseUnavailable } from '../db/errors';
import { scimBaseUrl, scimErrorDocument, scimGroupResource, scimListResponse, scimUserResource } from '../presenters/scim';
import { resourceTypes, schemas, serviceProviderConfig } from './scim-discovery';
import { parseBody } from './body';
import { newRequestId } from './respond';
import { clientIp } from './client-ip';
import { withRequestScope } from '../observability/security-events';

const SCIM_TYPE = 'application/scim+json; charset=utf-8';
const BODY_TYPES = new Set(['application/scim+json', 'application/json']);

interface ScimRequest { services: Services; caller: ScimCaller; id: string; body: unknown; url: URL; baseUrl: string }
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Answer = { status: number; body?: unknown };

const ok = (body: unknown, status = 200): Answer => ({ status, body });

/** `excludedAttributes=members` (Entra ID reads groups without their members). */
const withoutMembers = (url: URL) => (url.searchParams.get('excludedAttributes') ?? '').split(',').some((a) => a.trim().toLowerCase() === 'members');

function groupOut(r: { group: Parameters<typeof scimGroupResource>[0]; members: Parameters<typeof scimGroupResource>[1] }, req: ScimRequest) {
  const resource = scimGroupResource(r.group, r.members, req.baseUrl);
  if (!withoutMembers(req.url)) return resource;
  const { members: _members, ...rest } = resource;
  return rest;
}

const page = (url: URL) => scimPage(url.searchParams.get('startIndex'), url.searchParams.get('count'));

const handlers: { method: Method; path: string; handle(req: ScimRequest): Promise<Answer> }[] = [
  { method: 'GET', path: '/Users', async handle(req) {
    const list = await listScimUsers(req.services, req.caller, { filter: req.url.searchParams.get('filter'), page: page(req.url) });
    return ok(scimListResponse(list.rows.map((r) => scimUserResource(r, req.baseUrl)), list.total, list.startIndex));
  } },
  { method: 'POST', path: '/Users', async handle(req) {
    return ok(scimUserResource(await provisionScimUser(req.services, req.caller, req.body), req.baseUrl), 201);
  } },
  { method: 'GET', path: '/Users/:id', async handle(req) { return ok(scimUserResource(await getScimUser(req.services, req.caller, req.id), req.baseUrl)); } },
  { method: 'PUT', path: '/Users/:id', async handle(req) { return ok(scimUserResource(await replaceScimUser(req.services, req.caller, req.id, req.body), req.baseUrl)); } },
  { method: 'PATCH', path: '/Users/:id', async handle(req) { return ok(scimUserResource(await patchScimUser(req.services, req.caller, req.id, req.body), req.baseUrl)); } },
  { method: 'DELETE', path: '/Users/:id', async handle(req) { await deleteScimUser(req.services, req.caller, req.id); return { status: 204 }; } },
  { method: 'GET', path: '/Groups', async handle(req) {
    const list = await listScimGroups(req.services, req.caller, { filter: req.url.searchParams.get('filter'), page: page(req.url) });
    return ok(scimListResponse(list.records.map((r) => groupOut(r, req)), list.total, list.startIndex));
  } },
  { method: 'POST', path: '/Groups', async handle(req) { return ok(groupOut(await createScimGroup(req.services, req.caller, req.body), req), 201); } },
  { method: 'GET', path: '/Groups/:id', async handle(req) { return ok(groupOut(await getScimGroup(req.services, req.caller, req.id), req)); } },
  { method: 'PUT', path: '/Groups/:id', async handle(req) { return ok(groupOut(await replaceScimGroup(req.services, req.caller, req.id, req.body), req)); } },
  { method: 'PATCH', path: '/Groups/:id', async handle(req) {
    const record = await patchScimGroup(req.services, req.caller, req.id, req.body);
    // Okta and Entra ID accept 204 for a group PATCH; the resource is sent unless members were excluded.
    return ok(groupOut(record, req));
  } },
  { method: 'DELETE', path: '/Groups/:id', async handle(req) { await deleteScimGroup(req.services, req.caller, req.id); return { status: 204 }; } },
];

function respond(answer: Answer): Response {
  const headers = { 'content-type': SCIM_TYPE, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  return answer.body === undefined ? new Response(null, { status: answer.status, headers }) : new Response(JSON.stringify(answer.body), { status: answer.status, headers });
}

function errorAnswer(err: unknown, request: Request): Answer {
  if (err instanceof ScimError) return { status: err.status, body: scimErrorDocument(err.status, err.detail, err.scimType) };
  if (err instanceof KnownError) {
    const status = err.statusCode;
    return { status, body: scimErrorDocument(status, err.message, status === 409 ? 'uniqueness' : status === 400 ? 'invalidValue' : undefined) };
  }
  if (isDatabaseUnavailable(err)) return { status: 503, body: scimErrorDocument(503, 'The service is temporarily unavailable. Please retry in a moment.') };
  const requestId = newRequestId();
  console.error(`[${requestId}] SCIM ${request.method} ${new URL(request.url).pathname} failed:`, err);
  return { status: 500, body: scimErrorDocument(500, `Something went wrong (request ${requestId}).`) };
}

export function mountScim(app: Elysia, services: Services): void {
  const base = '/scim/v2/:team_id';
  const discovery = (render: (baseUrl: string) => unknown) => ({ params }: { params: Record<string, string> }) =>
    respond(ok(render(scimBaseUrl(services.config.publicUrl, params.team_id!))));
  app.get(`${base}/ServiceProviderConfig`, discovery(serviceProviderConfig));
  app.get(`${base}/ResourceTypes`, discovery((b) => scimListResponse(resourceTypes(b), 2, 1)));
  app.get(`${base}/ResourceTypes/:name`, ({ params }) => {
    const found = resourceTypes(scimBaseUrl(services.config.publicUrl, params.team_id)).find((r) => r.id === params.name);
    return respond(found ? ok(found) : ok(scimErrorDocument(404, `No resource type ${params.name}.`), 404));
  });
  app.get(`${base}/Schemas`, discovery((b) => scimListResponse(schemas(b), 2, 1)));
  app.get(`${base}/Schemas/:id`, ({ params }) => {
    const found = schemas(scimBaseUrl(services.config.publicUrl, params.team_id)).find((s) => s.id === params.id);
    return respond(found ? ok(found) : ok(scimErrorDocument(404, `No schema ${params.id}.`), 404));
  });

  for (const h of handlers) {
    app.route(h.method, base + h.path, ({ request, params, server }) => {
      // The request's IP and id go into the provisioning log's entries (scim/provisioning-log.ts).
      const ip = clientIp(server?.requestIP(request)?.address, request.headers, services.config.trustProxy);
      return withRequestScope(ip, newRequestId(), () => handleScim(h, request, params as Record<string, string>));
    }, { parse: 'none' });
  }

  async function handleScim(h: (typeof handlers)[number], request: Request, p: Record<string, string>): Promise<Response> {
      const url = new URL(request.url);
      try {
        const caller = await authenticateScim(services, p.team_id!, request.headers.get('authorization'));
        let body: unknown;
        if (h.method === 'POST' || h.method === 'PUT' || h.method === 'PATCH') {
          const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
          if (!BODY_TYPES.has(type)) throw new ScimError(415 as number, 'Send the body as application/scim+json.');
          try {
            body = await parseBody(request, services.config.maxBodyBytes);
          } catch (err) {
            if (err instanceof KnownError) throw new ScimError(err.statusCode === 413 ? 413 : 400, err.message, 'invalidSyntax');
            throw err;
          }
        }
        return respond(await h.handle({ services, caller, id: p.id ?? '', body, url, baseUrl: scimBaseUrl(services.config.publicUrl, p.team_id!) }));
      } catch (err) {
        return respond(errorAnswer(err, request));
      }
  }
}
