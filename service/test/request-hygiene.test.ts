// Issue 17 §7 (ASVS 13.1.5, 5.1.5): JSON routes refuse other content types with 415 UNSUPPORTED_MEDIA_TYPE (the
// OAuth token endpoint keeps taking the forms the SDK posts), and a project in production mode does not trust
// localhost, whatever its allow_localhost says (stored and listed as a production-mode error, as the reference does).
import { describe, expect, test } from 'bun:test';
import { expectKnownError, sharedService, type ApiResponse } from './support/service';
import { internalClient, newInternalUser, newProject, signUp } from './support/projects';

const svc = await sharedService();
const p = await newProject(svc);

async function raw(path: string, body: BodyInit, contentType: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const res = await fetch(`${svc.url}/api/v1${path}`, {
    method: 'POST', body,
    headers: { 'content-type': contentType, 'x-stack-project-id': p.id, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': p.keys.publishableClientKey, ...headers },
  });
  const text = await res.text();
  let parsed: any = text;
  try { parsed = JSON.parse(text); } catch { /* text */ }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

describe('415 for bodies a JSON route does not take', () => {
  test('text, forms, multipart and XML on a JSON route: 415 with the type and what to send; nothing happens', async () => {
    const u = await signUp(p);
    const credentials = { email: u.email, password: u.password };
    const cases: [BodyInit, string, string][] = [
      [JSON.stringify(credentials), 'text/plain;charset=UTF-8', 'text/plain'],
      [new URLSearchParams(credentials).toString(), 'application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
      ['--x\r\ncontent-disposition: form-data; name="email"\r\n\r\na@b.c\r\n--x--\r\n', 'multipart/form-data; boundary=x', 'multipart/form-data'],
      ['<email/>', 'application/xml', 'application/xml'],
    ];
    for (const [body, header, type] of cases) {
      const res = await raw('/auth/password/sign-in', body, header);
      expectKnownError(res, 'UNSUPPORTED_MEDIA_TYPE', 415);
      expect(res.body).toEqual({
        code: 'UNSUPPORTED_MEDIA_TYPE', details: { content_type: type, supported: ['application/json'] },
        error: `Unsupported content type in request body: ${type}. Send application/json.`,
      });
    }
    // A text/plain sign-up (what a cross-site form could send without a preflight) creates no user.
    const email = `text-${crypto.randomUUID()}@example.com`;
    expect((await raw('/auth/password/sign-up', JSON.stringify({ email, password: 'a-long-password-9' }), 'text/plain')).status).toBe(415);
    const listed = await p.server.get(`/users?query=${encodeURIComponent(email)}`);
    expect(listed.body.items).toEqual([]);
    // The same request as JSON (what the SDK sends) goes through.
    expect((await raw('/auth/password/sign-in', JSON.stringify(credentials), 'application/json')).status).toBe(200);
  });

  test('the OAuth token endpoint keeps taking forms (oauth4webapi) and JSON, and nothing else', async () => {
    const u = await signUp(p);
    const fields = { grant_type: 'refresh_token', refresh_token: u.refreshToken, client_id: p.id, client_secret: p.keys.publishableClientKey };
    const form = await raw('/auth/oauth/token', new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded;charset=UTF-8', { accept: 'application/json' });
    expect(form.status).toBe(200);
    expect(form.body.access_token).toBeString();
    expect((await raw('/auth/oauth/token', JSON.stringify(fields), 'application/json')).status).toBe(200);
    const text = await raw('/auth/oauth/token', JSON.stringify(fields), 'text/plain');
    expectKnownError(text, 'UNSUPPORTED_MEDIA_TYPE', 415);
    expect(text.body.details.supported).toEqual(['application/x-www-form-urlencoded', 'application/json']);
  });
});

describe('localhost in production mode', () => {
  test('stored as the reference stores it, and listed as a production-mode error; but not trusted while in production mode', async () => {
    const q = await newProject(svc);
    const u = await signUp(q);
    const localhost = 'http://localhost:3000/handler/password-reset';
    const trusted = () => q.client.post('/auth/password/send-reset-code', { email: u.email, callback_url: localhost });
    expect((await trusted()).status).toBe(200);

    const res = await q.admin.patch('/projects/current', { is_production_mode: true });
    expect(res.status).toBe(200);
    expect({ prod: res.body.is_production_mode, localhost: res.body.config.allow_localhost }).toEqual({ prod: true, localhost: true });
    expectKnownError(await trusted(), 'REDIRECT_URL_NOT_WHITELISTED', 400);

    // Leaving production mode trusts it again.
    expect((await q.admin.patch('/projects/current', { is_production_mode: false })).status).toBe(200);
    expect((await trusted()).status).toBe(200);
  });

  test('a project may be created in production mode with localhost allowed (stored as the reference does)', async () => {
    const owner = await newInternalUser(svc);
    const created = await internalClient(svc).post('/internal/projects', { display_name: 'Prod', is_production_mode: true }, { accessToken: owner.accessToken });
    expect(created.status).toBe(201);
    expect(created.body.config.allow_localhost).toBe(true);
  });
});
