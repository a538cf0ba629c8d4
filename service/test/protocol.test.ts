// The protocol core over HTTP: x-stack-* headers and the order of the project-auth checks (protocol-auth §1.3),
// route-level access types, validation and body parsing errors, error-status override, CORS, root, health, 404/405,
// the /api/latest alias, OpenAPI, and API key revocation/expiry.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Api, DEV_KEYS, adminApi, clientApi, expectKnownError, serverApi, startService, type RunningService } from './support/service';
import { internalClient, newInternalUser, newProject, signUp } from './support/projects';
import { setupSuite } from './support/suite';

const { svc, p } = await setupSuite();

/** A request with exactly these headers (nothing added), to any path of the service. */
async function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: BodyInit } = {}) {
  const res = await fetch(`${svc.url}${path}`, { method: init.method ?? 'GET', headers: init.headers, body: init.body, redirect: 'manual' });
  const text = await res.text();
  let body: any = text;
  if ((res.headers.get('content-type') ?? '').includes('application/json')) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, text, body };
}

const ACCESS_TYPE_REQUIRED_MESSAGE = "You must specify an access level for this Stack project. Make sure project API keys are provided (eg. x-stack-publishable-client-key) and you set the x-stack-access-type header to 'client', 'server', or 'admin'.\n\nFor more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication";

describe('project authentication, in the documented order of checks', () => {
  test('no access type: unauthenticated; routes that need auth answer ACCESS_TYPE_REQUIRED', async () => {
    const res = await new Api(svc.url).get('/users/me');
    expectKnownError(res, 'ACCESS_TYPE_REQUIRED', 400);
    expect(res.body).toEqual({ code: 'ACCESS_TYPE_REQUIRED', error: ACCESS_TYPE_REQUIRED_MESSAGE });
  });

  test('a key or admin access token without access type ⇒ PROJECT_KEY_WITHOUT_ACCESS_TYPE', async () => {
    for (const h of ['x-stack-publishable-client-key', 'x-stack-secret-server-key', 'x-stack-super-secret-admin-key', 'x-stack-admin-access-token']) {
      const res = await new Api(svc.url, { 'x-stack-project-id': p.id, [h]: 'something' }).get('/users/me');
      expectKnownError(res, 'PROJECT_KEY_WITHOUT_ACCESS_TYPE', 400);
      expect(res.body.error).toBe("Either an API key or an admin access token was provided, but the x-stack-access-type header is missing. Set it to 'client', 'server', or 'admin' as appropriate.");
      expect(res.body.details).toBeUndefined();
    }
  });

  test('an invalid access type ⇒ INVALID_ACCESS_TYPE', async () => {
    const res = await new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'superuser' }).get('/users/me');
    expectKnownError(res, 'INVALID_ACCESS_TYPE', 400);
    expect(res.body.error).toBe("The x-stack-access-type header must be 'client', 'server', or 'admin', but was 'superuser'.");
  });

  test('an access type without project id ⇒ ACCESS_TYPE_WITHOUT_PROJECT_ID with request_type', async () => {
    const res = await new Api(svc.url, { 'x-stack-access-type': 'server', 'x-stack-secret-server-key': p.keys.secretServerKey }).get('/users');
    expectKnownError(res, 'ACCESS_TYPE_WITHOUT_PROJECT_ID', 400);
    expect(res.body.details).toEqual({ request_type: 'server' });
    expect(res.body.error).toBe("The x-stack-access-type header was 'server', but the x-stack-project-id header was not provided.\n\nFor more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication");
  });

  test('the key of the access type is required; an empty header counts as absent', async () => {
    const cases = [
      ['client', 'x-stack-publishable-client-key', 'CLIENT_AUTHENTICATION_REQUIRED', 'The publishable client key must be provided.'],
      ['server', 'x-stack-secret-server-key', 'SERVER_AUTHENTICATION_REQUIRED', 'The secret server key must be provided.'],
      ['admin', 'x-stack-super-secret-admin-key', 'ADMIN_AUTHENTICATION_REQUIRED', 'The super secret admin key must be provided.'],
    ] as const;
    for (const [type, h, code, message] of cases) {
      for (const value of [undefined, '']) {
        // The other keys are valid but irrelevant: only the key of the requested access type counts.
        const headers: Record<string, string | undefined> = {
          'x-stack-project-id': p.id, 'x-stack-access-type': type,
          'x-stack-publishable-client-key': p.keys.publishableClientKey, 'x-stack-secret-server-key': p.keys.secretServerKey,
          'x-stack-super-secret-admin-key': p.keys.superSecretAdminKey, 'x-stack-admin-access-token': '',
          [h]: value,
        };
        const res = await new Api(svc.url, headers).get('/projects/current');
        expectKnownError(res, code, 401);
        expect(res.body.error).toBe(message);
      }
    }
  });

  test('a key that is not valid for the project ⇒ INVALID_*_KEY with project_id (also for unknown projects)', async () => {
    const other = await newProject(svc);
    const cases = [
      ['client', 'x-stack-publishable-client-key', other.keys.publishableClientKey, 'INVALID_PUBLISHABLE_CLIENT_KEY', 'publishable key'],
      ['server', 'x-stack-secret-server-key', other.keys.secretServerKey, 'INVALID_SECRET_SERVER_KEY', 'secret server key'],
      ['admin', 'x-stack-super-secret-admin-key', other.keys.superSecretAdminKey, 'INVALID_SUPER_SECRET_ADMIN_KEY', 'super secret admin key'],
    ] as const;
    for (const [type, h, key, code, name] of cases) {
      for (const projectId of [p.id, crypto.randomUUID(), 'internal']) {
        const res = await new Api(svc.url, { 'x-stack-project-id': projectId, 'x-stack-access-type': type, [h]: key }).get('/projects/current');
        expectKnownError(res, code, 401);
        expect(res.body.details).toEqual({ project_id: projectId });
        expect(res.body.error).toBe(`The ${name} is not valid for the project "${projectId}". Does the project and/or the key exist?`);
      }
    }
    // A key of another access type does not work either.
    const res = await new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'admin', 'x-stack-super-secret-admin-key': p.keys.secretServerKey }).get('/projects/current');
    expectKnownError(res, 'INVALID_SUPER_SECRET_ADMIN_KEY', 401);
  });

  test('each valid key grants its access type only', async () => {
    expect((await p.client.get('/projects/current')).status).toBe(200);
    expect((await p.server.get('/users')).status).toBe(200);
    expect((await p.admin.get('/internal/api-keys')).status).toBe(200);
    const res = await p.server.get('/internal/api-keys');
    expectKnownError(res, 'INSUFFICIENT_ACCESS_TYPE', 401);
  });

  test('the access token is decoded first: UNPARSABLE_ACCESS_TOKEN even before key and access-type checks', async () => {
    for (const token of ['garbage', 'a.b.c', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln']) {
      for (const headers of [
        { 'x-stack-project-id': p.id },
        { 'x-stack-project-id': p.id, 'x-stack-access-type': 'nonsense' },
        { 'x-stack-project-id': p.id, 'x-stack-access-type': 'client' },
      ]) {
        const res = await new Api(svc.url, headers).get('/users/me', { accessToken: token });
        expectKnownError(res, 'UNPARSABLE_ACCESS_TOKEN', 401);
        expect(res.body).toEqual({ code: 'UNPARSABLE_ACCESS_TOKEN', error: 'Access token is not parsable.' });
      }
    }
    // Without a project id the access token is not looked at.
    const res = await new Api(svc.url).get('/users/me', { accessToken: 'garbage' });
    expectKnownError(res, 'ACCESS_TYPE_REQUIRED', 400);
  });

  test("another project's access token ⇒ INVALID_PROJECT_FOR_ACCESS_TOKEN with both ids", async () => {
    const u = await signUp(p);
    for (const api of [internalClient(svc), new Api(svc.url, { 'x-stack-project-id': 'internal' })]) {
      const res = await api.get('/users/me', { accessToken: u.accessToken });
      expectKnownError(res, 'INVALID_PROJECT_FOR_ACCESS_TOKEN', 401);
      expect(res.body.details).toEqual({ expected_project_id: 'internal', actual_project_id: p.id });
      expect(res.body.error).toBe(`Access token not valid for this project. Expected project ID "internal", but the token is for project ID "${p.id}".`);
    }
  });

  test('an empty access token header is absent', async () => {
    const res = await p.client.get('/users/me', { headers: { 'x-stack-access-token': '' } });
    expectKnownError(res, 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
  });
});

describe('admin access tokens', () => {
  const ownerApi = (projectId: string, token: string, type = 'admin') =>
    new Api(svc.url, { 'x-stack-project-id': projectId, 'x-stack-access-type': type, 'x-stack-admin-access-token': token, 'x-stack-super-secret-admin-key': '' });

  test("the owner's internal access token grants every access type without keys", async () => {
    for (const type of ['client', 'server', 'admin']) {
      const res = await ownerApi(p.id, p.ownerAccessToken, type).get('/projects/current');
      expect(res.status).toBe(200);
    }
    const admin = await ownerApi(p.id, p.ownerAccessToken).get('/projects/current');
    expect(admin.body.id).toBe(p.id);
    expect(admin.body.config.domains).toBeDefined();
    // The admin token replaces the key check: a wrong key next to it does not matter.
    const withBadKey = await new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': p.ownerAccessToken, 'x-stack-super-secret-admin-key': 'wrong' }).get('/projects/current');
    expect(withBadKey.status).toBe(200);
  });

  test('a non-owner ⇒ ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN; a token of another project too', async () => {
    const stranger = await newInternalUser(svc);
    const res = await ownerApi(p.id, stranger.accessToken).get('/projects/current');
    expectKnownError(res, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
    expect(res.body.error).toBe('Admin access token does not have the required permissions to access this project.');

    const projectUser = await signUp(p);
    expectKnownError(await ownerApi(p.id, projectUser.accessToken).get('/projects/current'), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
  });

  test('an unparsable admin access token ⇒ UNPARSABLE_ADMIN_ACCESS_TOKEN', async () => {
    const res = await ownerApi(p.id, 'not-a-jwt').get('/projects/current');
    expectKnownError(res, 'UNPARSABLE_ADMIN_ACCESS_TOKEN', 401);
    expect(res.body.error).toBe('Admin access token is not parsable.');
  });

  test('a deleted internal user ⇒ plain-text 401', async () => {
    const owner = await newInternalUser(svc);
    const project = await newProject(svc, { owner });
    expect((await ownerApi(project.id, owner.accessToken).get('/projects/current')).status).toBe(200);
    const internalAdmin = adminApi(svc.url, 'internal', DEV_KEYS.superSecretAdminKey);
    expect((await internalAdmin.delete(`/users/${owner.userId}`)).status).toBe(200);
    const res = await ownerApi(project.id, owner.accessToken).get('/projects/current');
    expect(res.status).toBe(401);
    expect(res.headers.get('x-stack-known-error')).toBeNull();
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toBe('The user associated with the admin access token is no longer valid. Please refresh the admin access token and try again.');
  });

  test('a listed project that does not exist ⇒ INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN', async () => {
    const owner = await newInternalUser(svc);
    const ghost = crypto.randomUUID();
    const internalAdmin = adminApi(svc.url, 'internal', DEV_KEYS.superSecretAdminKey);
    expect((await internalAdmin.patch(`/users/${owner.userId}`, { server_metadata: { managedProjectIds: [ghost] } })).status).toBe(200);
    const res = await ownerApi(ghost, owner.accessToken).get('/projects/current');
    expectKnownError(res, 'INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN', 401);
    expect(res.body.error).toBe('Admin access tokens must be created on the internal project.');
  });
});

describe('route-level access', () => {
  test('INSUFFICIENT_ACCESS_TYPE lists the allowed types', async () => {
    const res = await p.client.get('/users');
    expectKnownError(res, 'INSUFFICIENT_ACCESS_TYPE', 401);
    expect(res.body.details).toEqual({ actual_access_type: 'client', allowed_access_types: ['server', 'admin'] });
    expect(res.body.error).toBe("The x-stack-access-type header must be 'server' or 'admin', but was 'client'.");

    const adminOnly = await p.server.get('/internal/api-keys');
    expect(adminOnly.body.details).toEqual({ actual_access_type: 'server', allowed_access_types: ['admin'] });
    expect(adminOnly.body.error).toBe("The x-stack-access-type header must be 'admin', but was 'server'.");
  });

  test('access-type errors come before schema errors', async () => {
    const res = await p.client.post('/users', { nonsense: true });
    expectKnownError(res, 'INSUFFICIENT_ACCESS_TYPE', 401);
  });
});

describe('validation (SCHEMA_ERROR)', () => {
  test('one line: exact message, details.message equal to error', async () => {
    const res = await p.client.post('/auth/password/sign-up', { email: 'a@example.com', password: 'x'.repeat(71) });
    expectKnownError(res, 'SCHEMA_ERROR', 400);
    const message = 'Request validation failed on POST /api/v1/auth/password/sign-up:\n  - body.password must be at most 70 characters';
    expect(res.body).toEqual({ code: 'SCHEMA_ERROR', details: { message }, error: message });
  });

  test('all problems are collected, unknown properties included', async () => {
    const res = await p.client.post('/auth/password/sign-up', { email: 'not-an-email', password: 5, extra: 1, other: 'x' });
    expectKnownError(res, 'SCHEMA_ERROR', 400);
    const [head, ...lines] = res.body.error.split('\n');
    expect(head).toBe('Request validation failed on POST /api/v1/auth/password/sign-up:');
    expect(lines.sort()).toEqual([
      '  - body contains unknown properties: extra, other',
      '  - body.email must be a valid email',
      '  - body.password must be a `string` type, but the final value was: `5`.',
    ]);
    expect(res.body.details.message).toBe(res.body.error);
  });

  test('missing fields, missing body, unknown query parameters', async () => {
    const u = await signUp(p);
    const res = await p.client.post('/auth/password/update', {}, { accessToken: u.accessToken });
    expect(res.body.error).toBe('Request validation failed on POST /api/v1/auth/password/update:\n  - body.old_password must be defined\n  - body.new_password must be defined');

    const noBody = await p.client.post('/auth/password/sign-in');
    expectKnownError(noBody, 'SCHEMA_ERROR', 400);
    expect(noBody.body.error).toBe('Request validation failed on POST /api/v1/auth/password/sign-in:\n  - body must be defined');

    const query = await p.server.get('/users?extra=1&limit=2');
    expectKnownError(query, 'SCHEMA_ERROR', 400);
    expect(query.body.error).toBe('Request validation failed on GET /api/v1/users:\n  - query contains unknown properties: extra');

    const root = await new Api(svc.url).get('?x=1');
    expect(root.body.error).toBe('Request validation failed on GET /api/v1:\n  - query contains unknown properties: x');
  });

  test('the path in the message is the path as requested', async () => {
    const res = await raw('/api/latest/auth/password/sign-in', {
      method: 'POST', body: JSON.stringify({}),
      headers: { 'content-type': 'application/json', 'x-stack-project-id': p.id, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': p.keys.publishableClientKey },
    });
    expect(res.body.error.split('\n')[0]).toBe('Request validation failed on POST /api/latest/auth/password/sign-in:');
  });
});

describe('request bodies (BODY_PARSING_ERROR)', () => {
  const post = (body: BodyInit, contentType?: string) =>
    raw('/api/v1/auth/password/sign-in', {
      method: 'POST', body,
      headers: { ...(contentType ? { 'content-type': contentType } : {}), 'x-stack-project-id': p.id, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': p.keys.publishableClientKey },
    });

  test('invalid JSON', async () => {
    const res = await post('{"email":', 'application/json');
    expectKnownError(res, 'BODY_PARSING_ERROR', 400);
    // details.message is sent too (the SDK's parser reads it; the reference omits it, a quirk).
    expect(res.body).toEqual({ code: 'BODY_PARSING_ERROR', details: { message: 'Invalid JSON in request body' }, error: 'Invalid JSON in request body' });
  });

  // Gatehouse narrows §1.5 (issue 17 §7, ASVS 13.1.5): a JSON route refuses other content types with 415 instead of
  // reading forms and text (a cross-site page can send those without a CORS preflight).
  const unsupported = (res: Awaited<ReturnType<typeof post>>, type: string) => {
    expectKnownError(res, 'UNSUPPORTED_MEDIA_TYPE', 415);
    expect(res.body).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE', details: { content_type: type, supported: ['application/json'] },
      error: `Unsupported content type in request body: ${type}. Send application/json.`,
    });
  };

  test('unknown content type: 415', async () => {
    unsupported(await post('<x/>', 'application/xml'), 'application/xml');
  });

  test('text that is not UTF-8', async () => {
    const res = await post(new Uint8Array([0xff, 0xfe, 0x41]), 'application/json');
    expectKnownError(res, 'BODY_PARSING_ERROR', 400);
    expect(res.body.error).toBe('Request body cannot be parsed as UTF-8');
  });

  test('JSON with a charset parameter is accepted; form-encoded and text bodies answer 415', async () => {
    const u = await signUp(p);
    const json = await post(JSON.stringify({ email: u.email, password: u.password }), 'application/json;charset=UTF-8');
    expect(json.status).toBe(200);
    unsupported(await post(new URLSearchParams({ email: u.email, password: u.password }).toString(), 'application/x-www-form-urlencoded'), 'application/x-www-form-urlencoded');
    unsupported(await post(JSON.stringify({ email: u.email, password: u.password }), 'text/plain;charset=UTF-8'), 'text/plain');
  });
});

describe('responses', () => {
  test('x-stack-override-error-status: 200 + x-stack-actual-status, body and known-error header kept', async () => {
    const res = await p.client.get('/users', { headers: { 'x-stack-override-error-status': 'true' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-stack-actual-status')).toBe('401');
    expect(res.headers.get('x-stack-known-error')).toBe('INSUFFICIENT_ACCESS_TYPE');
    expect(res.body.code).toBe('INSUFFICIENT_ACCESS_TYPE');

    const ok = await p.client.get('/projects/current', { headers: { 'x-stack-override-error-status': 'true' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-stack-actual-status')).toBeNull();

    const notFound = await raw('/api/v1/no/such/route', { headers: { 'x-stack-override-error-status': '1' } });
    expect(notFound.status).toBe(200);
    expect(notFound.headers.get('x-stack-actual-status')).toBe('404');

    const plain = await p.client.delete('/users/me', { headers: { 'x-stack-override-error-status': '' }, accessToken: (await signUp(p)).accessToken });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('x-stack-actual-status')).toBe('400');
    expect(plain.text).toBe('Client user deletion is not enabled for this project');
  });

  test('every API response carries a request id, no-store caching and CORS headers', async () => {
    for (const res of [await p.client.get('/projects/current'), await p.client.get('/users'), await raw('/api/v1/nope')]) {
      expect(res.headers.get('x-stack-request-id')).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(res.headers.get('cache-control')).toBe('no-store, max-age=0');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toBe('content-type, x-stack-actual-status, x-stack-known-error, retry-after');
    }
    const a = await p.client.get('/projects/current');
    const b = await p.client.get('/projects/current');
    expect(a.headers.get('x-stack-request-id')).not.toBe(b.headers.get('x-stack-request-id'));
    expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  test('CORS preflight on any /api path, existing or not', async () => {
    for (const path of ['/api/v1/users/me', '/api/v1/does/not/exist', '/api/latest/auth/oauth/token']) {
      const res = await raw(path, { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'PATCH' } });
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS');
      expect(res.headers.get('access-control-max-age')).toBe('86400');
      const allowed = res.headers.get('access-control-allow-headers')!.split(', ');
      for (const h of ['content-type', 'authorization', 'x-stack-project-id', 'x-stack-access-type', 'x-stack-access-token', 'x-stack-refresh-token', 'x-stack-admin-access-token', 'x-stack-override-error-status', 'x-stack-publishable-client-key']) {
        expect(allowed).toContain(h);
      }
      expect(res.headers.get('access-control-expose-headers')).toBe('content-type, x-stack-actual-status, x-stack-known-error, retry-after');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});

describe('root, health, unknown routes, aliases, docs', () => {
  test('GET /api/v1 tells how the request authenticated', async () => {
    const none = await raw('/api/v1');
    expect(none.status).toBe(200);
    expect(none.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(none.text).toMatch(/^Welcome to the .+\n\nAuthentication: None$/);

    const client = await p.client.get('');
    expect(client.text).toEndWith(`\n\nAuthentication: Client\n  Project: ${p.id}\n  User: None`);

    const u = await signUp(p);
    const withUser = await p.client.get('', { accessToken: u.accessToken });
    expect(withUser.text).toEndWith(`\n\nAuthentication: Client\n  Project: ${p.id}\n  User: ${u.email}`);

    const server = await p.server.get('');
    expect(server.text).toEndWith(`\n\nAuthentication: Server\n  Project: ${p.id}\n  User: None`);
    const noEmail = await p.server.post('/users', {});
    const session = await p.server.post('/auth/sessions', { user_id: noEmail.body.id });
    const admin = await p.admin.get('', { accessToken: session.body.access_token });
    expect(admin.text).toEndWith(`\n\nAuthentication: Admin\n  Project: ${p.id}\n  User: ${noEmail.body.id}`);
  });

  test('POST /check-feature-support: always 200 text naming body.feature_name, else "This feature"', async () => {
    const tail = ' is not yet supported. Please reach out to Stack support for more information.';
    const named = await raw('/api/v1/check-feature-support', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ feature_name: 'Team SSO', extra: [1] }),
    });
    expect({ status: named.status, type: named.headers.get('content-type'), text: named.text })
      .toEqual({ status: 200, type: 'text/plain; charset=utf-8', text: `Team SSO${tail}` });
    // What the SDK sends ({name, …}) is not read: the reference answers "This feature …" to it.
    expect((await p.server.post('/check-feature-support', { name: 'sendVerificationEmail() on ServerUser' })).text).toBe(`This feature${tail}`);
    const u = await signUp(p);
    const withUser = await p.client.post('/check-feature-support', { feature_name: 'X' }, { accessToken: u.accessToken });
    expect({ status: withUser.status, text: withUser.text }).toEqual({ status: 200, text: `X${tail}` });
    for (const body of [undefined, '"a string"', '[1, 2]', 'null', JSON.stringify({ feature_name: 42 })]) {
      const res = await raw('/api/v1/check-feature-support', { method: 'POST', headers: body === undefined ? {} : { 'content-type': 'application/json' }, body });
      expect({ body, status: res.status, text: res.text }).toEqual({ body, status: 200, text: `This feature${tail}` });
    }
  });

  test('GET /health (and ?db) with permissive CORS, outside the API', async () => {
    for (const path of ['/health', '/health?db=1']) {
      const res = await raw(path, { headers: { 'x-stack-override-error-status': 'true' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toBe('*');
    }
  });

  test('unknown API paths: plain-text 404 naming the URL', async () => {
    for (const path of ['/api/v1/no/such/route', '/api/v1/users/me/extra', '/api/v2/users/me']) {
      const res = await raw(`${path}?a=1`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('x-stack-known-error')).toBeNull();
      expect(res.text).toStartWith('404 — this page does not exist in');
      expect(res.text).toEndWith(`\n\nURL: ${svc.url}${path}?a=1`);
    }
  });

  test('a method that the API does not allow ⇒ 405 "Method not allowed"', async () => {
    const res = await raw('/api/v1/users/me', { method: 'PROPFIND' });
    expect(res.status).toBe(405);
    expect(res.text).toBe('Method not allowed');
  });

  test('a known path asked with a method it does not implement ⇒ 405 with Allow; an unknown path stays 404', async () => {
    const res = await raw('/api/v1/users/me', { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PATCH, DELETE');
    const team = await raw(`/api/v1/teams/${crypto.randomUUID()}`, { method: 'POST' });
    expect(team.status).toBe(405);
    expect(team.headers.get('allow')).toBe('GET, PATCH, DELETE');
    expect((await raw('/api/v1/no-such-thing', { method: 'PUT' })).status).toBe(404);
  });

  test('/api/latest is an alias of /api/v1', async () => {
    const u = await signUp(p);
    const res = await raw('/api/latest/users/me', {
      headers: { 'x-stack-project-id': p.id, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': p.keys.publishableClientKey, 'x-stack-access-token': u.accessToken },
    });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(u.userId);
  });

  test('the OpenAPI document lists the routes; the docs page is HTML', async () => {
    const doc = await raw('/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toStartWith('3.');
    const paths = doc.body.paths as Record<string, Record<string, unknown>>;
    for (const [path, method] of [
      ['/users/me', 'get'], ['/users/me', 'patch'], ['/users', 'get'], ['/users/{user_id}', 'delete'],
      ['/auth/password/sign-up', 'post'], ['/auth/password/sign-in', 'post'], ['/auth/oauth/token', 'post'],
      ['/auth/sessions', 'post'], ['/auth/sessions/{id}', 'delete'], ['/projects/current', 'get'],
      ['/internal/projects', 'post'], ['/internal/api-keys/{api_key_id}', 'patch'],
    ]) {
      expect(paths[path]?.[method]).toBeDefined();
    }
    // Request bodies are named schemas under components.schemas.
    const bodyRef = (paths['/auth/password/sign-up'].post as any).requestBody.content['application/json'].schema.$ref as string;
    const signUpBody = doc.body.components.schemas[bodyRef.replace('#/components/schemas/', '')];
    expect(signUpBody.properties.password.maxLength).toBe(70);

    const docs = await raw('/api/v1/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    expect(docs.text).toContain('/api/v1/openapi.json');
  });
});

describe('API key validity', () => {
  const createKeys = (expiresAt: number) => p.admin.post('/internal/api-keys', {
    description: 'short', expires_at_millis: expiresAt,
    has_publishable_client_key: true, has_secret_server_key: true, has_super_secret_admin_key: false,
  });

  test('a revoked key stops working at once', async () => {
    const created = await createKeys(Date.now() + 3600_000);
    expect(created.status).toBe(200);
    const client = clientApi(svc.url, p.id, created.body.publishable_client_key);
    const server = serverApi(svc.url, p.id, created.body.secret_server_key);
    expect((await client.get('/projects/current')).status).toBe(200);
    expect((await server.get('/users')).status).toBe(200);

    const revoked = await p.admin.patch(`/internal/api-keys/${created.body.id}`, { revoked: true });
    expect(revoked.status).toBe(200);
    expect(typeof revoked.body.manually_revoked_at_millis).toBe('number');

    const res = await client.get('/projects/current');
    expectKnownError(res, 'INVALID_PUBLISHABLE_CLIENT_KEY', 401);
    expectKnownError(await server.get('/users'), 'INVALID_SECRET_SERVER_KEY', 401);
    // The refresh grant checks the publishable key too.
    const u = await signUp(p);
    const grant = await new Api(svc.url).post('/auth/oauth/token', {
      grant_type: 'refresh_token', refresh_token: u.refreshToken, client_id: p.id, client_secret: created.body.publishable_client_key,
    }, { form: true });
    expectKnownError(grant, 'INVALID_OAUTH_CLIENT_ID_OR_SECRET', 400);
    // The project's other keys are unaffected.
    expect((await p.client.get('/projects/current')).status).toBe(200);
  });

  test('an expired key is rejected', async () => {
    const past = await createKeys(Date.now() - 1000);
    expect(past.status).toBe(200);
    expectKnownError(await clientApi(svc.url, p.id, past.body.publishable_client_key).get('/projects/current'), 'INVALID_PUBLISHABLE_CLIENT_KEY', 401);

    // Long enough that creating the key and using it fit in on a busy machine; then wait until it has expired.
    const expiresAt = Date.now() + 5_000;
    const soon = await createKeys(expiresAt);
    const client = clientApi(svc.url, p.id, soon.body.publishable_client_key);
    expect((await client.get('/projects/current')).status).toBe(200);
    await Bun.sleep(Math.max(0, expiresAt - Date.now()) + 200);
    expectKnownError(await client.get('/projects/current'), 'INVALID_PUBLISHABLE_CLIENT_KEY', 401);
  }, 30_000);
});

describe('hostile input is a clear 4xx, never a 500', () => {
  test('U+0000 in strings, metadata, query and path values ⇒ SCHEMA_ERROR (Postgres cannot store it)', async () => {
    const u = await signUp(p);
    const cases: [Promise<any>, string, string][] = [
      [p.client.patch('/users/me', { display_name: 'a\u0000b' }, { accessToken: u.accessToken }), 'PATCH /api/v1/users/me', 'body.display_name must not contain null characters'],
      [p.client.patch('/users/me', { client_metadata: { k: ['x\u0000'] } }, { accessToken: u.accessToken }), 'PATCH /api/v1/users/me', 'body.client_metadata must not contain null characters'],
      [p.client.patch('/users/me', { client_metadata: { 'k\u0000': 1 } }, { accessToken: u.accessToken }), 'PATCH /api/v1/users/me', 'body.client_metadata must not contain null characters'],
      [p.server.get('/users?query=%00'), 'GET /api/v1/users', 'query.query must not contain null characters'],
      [p.server.get('/users/%00'), 'GET /api/v1/users/%00', 'params.user_id must not contain null characters'],
      [new Api(svc.url).get('/projects/%00/.well-known/jwks.json'), 'GET /api/v1/projects/%00/.well-known/jwks.json', 'params.project_id must not contain null characters'],
      [new Api(svc.url).post('/auth/oauth/token', { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'a\u0000', client_secret: 'y' }), 'POST /api/v1/auth/oauth/token', 'body.client_id must not contain null characters'],
    ];
    for (const [call, head, line] of cases) {
      const res = await call;
      expectKnownError(res, 'SCHEMA_ERROR', 400);
      expect(res.body.error).toBe(`Request validation failed on ${head}:\n  - ${line}`);
    }
  });

  test('JSON nested more than 100 levels ⇒ BODY_PARSING_ERROR', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const res = await p.client.post('/auth/password/sign-in', deep);
    expectKnownError(res, 'BODY_PARSING_ERROR', 400);
    expect(res.body.error).toBe('JSON in request body is nested more than 100 levels deep');
    const u = await signUp(p);
    let nested: unknown = 'leaf';
    for (let i = 0; i < 99; i++) nested = { n: nested };
    expect((await p.client.patch('/users/me', { client_metadata: nested }, { accessToken: u.accessToken })).status).toBe(200);
  });

  test('out-of-range numbers are schema errors', async () => {
    const keys = await p.admin.post('/internal/api-keys', { description: 'x', expires_at_millis: 1e20, has_publishable_client_key: true, has_secret_server_key: false, has_super_secret_admin_key: false });
    expectKnownError(keys, 'SCHEMA_ERROR', 400);
    expect(keys.body.error).toContain('  - body.expires_at_millis must be less than or equal to 8640000000000000');
    const list = await p.server.get('/users?limit=100000000000000000000');
    expectKnownError(list, 'SCHEMA_ERROR', 400);
    expect(list.body.error).toContain('  - query.limit must be less than or equal to 9007199254740991');
  });
  // A malformed x-vercel-ip-city header: session-ip.test.ts (geo headers count behind a trusted proxy only).
});

// Last: it starts a second service, the slowest part on a busy machine.
describe('expired tokens (service with 1 s access tokens)', () => {
  let short: RunningService;
  beforeAll(async () => { short = await startService({ env: { GATEHOUSE_ACCESS_TOKEN_LIFETIME_SECONDS: '1' } }); }, 120_000);
  afterAll(async () => { await short?.stop(); });

  test('ACCESS_TOKEN_EXPIRED with expired_at_millis, and ADMIN_ACCESS_TOKEN_EXPIRED for admin access tokens', async () => {
    const owner = await newInternalUser(short);
    const claims = JSON.parse(Buffer.from(owner.accessToken.split('.')[1], 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(1);
    await Bun.sleep(Math.max(0, claims.exp * 1000 - Date.now()) + 50);

    const internal = clientApi(short.url, 'internal', DEV_KEYS.publishableClientKey);
    const res = await internal.get('/users/me', { accessToken: owner.accessToken });
    expectKnownError(res, 'ACCESS_TOKEN_EXPIRED', 401);
    expect(res.body.details).toEqual({ expired_at_millis: claims.exp * 1000 });
    expect(res.body.error).toBe(`Access token has expired. Please refresh it and try again. (The access token expired at ${new Date(claims.exp * 1000).toISOString()}.)`);
    // A second time (verified tokens may be cached) still expired.
    expectKnownError(await internal.get('/users/me', { accessToken: owner.accessToken }), 'ACCESS_TOKEN_EXPIRED', 401);

    const admin = new Api(short.url, { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': owner.accessToken });
    const adminRes = await admin.get('/projects/current');
    expectKnownError(adminRes, 'ADMIN_ACCESS_TOKEN_EXPIRED', 401);
    expect(adminRes.body.details).toEqual({ expired_at_millis: claims.exp * 1000 });

    // Refreshing gives a working token again. It expires at the end of the second it was minted in (a 1 s lifetime
    // from a whole-second iat), so refresh right after a second starts, leaving the use nearly the whole second.
    await Bun.sleep(1_000 - (Date.now() % 1_000) + 20);
    const refreshed = await internal.post('/auth/sessions/current/refresh', undefined, { refreshToken: owner.refreshToken });
    expect(refreshed.status).toBe(200);
    expect((await internal.get('/users/me', { accessToken: refreshed.body.access_token })).status).toBe(200);
  });
});
