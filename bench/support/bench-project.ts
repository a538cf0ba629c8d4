// The project a bench works in, made through the service's own API as an owner would: the internal project's keys
// that a production start prints once, an owner with a session, the project, and its server and client keys.
export type Headers = Record<string, string>;

export interface BenchProject {
  /** A JSON call to `{public URL}/api/v1{path}`; a non-2xx answer throws with its text. */
  call(method: string, path: string, headers: Headers, body?: unknown): Promise<any>;
  /** `{public URL}/api/v1`. */
  base: string;
  project: { id: string };
  /** The project's API keys as created (`publishable_client_key`, `secret_server_key`). */
  keys: { publishable_client_key: string; secret_server_key: string };
  admin: Headers;
  server: Headers;
  client: Headers;
}

export async function benchProject(publicUrl: string, serviceOutput: string, create: Record<string, unknown>): Promise<BenchProject> {
  const ssk = /secret server key: *(\S+)/.exec(serviceOutput)![1]!;
  const pck = /publishable client key: *(\S+)/.exec(serviceOutput)![1]!;
  const base = `${publicUrl}/api/v1`;
  const call = async (method: string, path: string, headers: Headers, body?: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} -> ${res.status}: ${text}`);
    return JSON.parse(text);
  };
  const internalServer = { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'server', 'x-stack-secret-server-key': ssk };
  const owner = await call('POST', '/users', internalServer, { primary_email: `owner-${Date.now()}@bench.local`, primary_email_auth_enabled: true, password: 'bench-owner-password-1' });
  const session = await call('POST', '/auth/sessions', internalServer, { user_id: owner.id });
  const project = await call('POST', '/internal/projects', {
    'x-stack-project-id': 'internal', 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': pck, 'x-stack-access-token': session.access_token,
  }, create);
  const admin = { 'x-stack-project-id': project.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': session.access_token };
  const keys = await call('POST', '/internal/api-keys', admin, { description: 'bench', expires_at_millis: Date.now() + 86_400_000, has_publishable_client_key: true, has_secret_server_key: true, has_super_secret_admin_key: false });
  return {
    call, base, project, keys, admin,
    server: { 'x-stack-project-id': project.id, 'x-stack-access-type': 'server', 'x-stack-secret-server-key': keys.secret_server_key },
    client: { 'x-stack-project-id': project.id, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': keys.publishable_client_key },
  };
}
