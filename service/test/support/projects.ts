// Creating isolated test projects the way a project owner does: sign in to the internal project, create a
// project (POST /internal/projects), create its API keys with the owner's admin access token.
import { expect } from 'bun:test';
import { Api, DEV_KEYS, adminApi, clientApi, serverApi, uniqueEmail, type RunningService } from './service';

export interface TestProject {
  id: string;
  url: string;
  keys: { publishableClientKey: string; secretServerKey: string; superSecretAdminKey: string };
  /** The owner's internal-project access token (admin access via x-stack-admin-access-token). */
  ownerAccessToken: string;
  client: Api;
  server: Api;
  admin: Api;
  /** Admin access through the owner's access token instead of the admin key. */
  ownerAdmin: Api;
}

export function internalClient(svc: RunningService) {
  return clientApi(svc.url, DEV_KEYS.projectId, DEV_KEYS.publishableClientKey);
}

/** Signs up a fresh user of the internal project; returns its tokens. */
export async function newInternalUser(svc: RunningService) {
  const email = uniqueEmail('owner');
  const res = await internalClient(svc).post('/auth/password/sign-up', { email, password: 'owner-password-1' });
  expect(res.status).toBe(200);
  return { email, userId: res.body.user_id as string, accessToken: res.body.access_token as string, refreshToken: res.body.refresh_token as string };
}

export async function newProject(svc: RunningService, opts: { displayName?: string; config?: Record<string, unknown>; owner?: { accessToken: string } } = {}): Promise<TestProject> {
  const owner = opts.owner ?? (await newInternalUser(svc));
  const created = await internalClient(svc).post('/internal/projects', {
    display_name: opts.displayName ?? 'Test project',
    ...(opts.config ? { config: opts.config } : {}),
  }, { accessToken: owner.accessToken });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const ownerAdmin = new Api(svc.url, { 'x-stack-project-id': id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': owner.accessToken });
  const keyRes = await ownerAdmin.post('/internal/api-keys', {
    description: 'test keys', expires_at_millis: Date.now() + 24 * 3600 * 1000,
    has_publishable_client_key: true, has_secret_server_key: true, has_super_secret_admin_key: true,
  });
  expect(keyRes.status).toBe(200);
  const keys = {
    publishableClientKey: keyRes.body.publishable_client_key as string,
    secretServerKey: keyRes.body.secret_server_key as string,
    superSecretAdminKey: keyRes.body.super_secret_admin_key as string,
  };
  return {
    id, url: svc.url, keys, ownerAccessToken: owner.accessToken, ownerAdmin,
    client: clientApi(svc.url, id, keys.publishableClientKey),
    server: serverApi(svc.url, id, keys.secretServerKey),
    admin: adminApi(svc.url, id, keys.superSecretAdminKey),
  };
}

/** Signs up a user with email and password in the project; returns its tokens and credentials. */
export async function signUp(project: TestProject, o: { email?: string; password?: string } = {}) {
  const email = o.email ?? uniqueEmail();
  const password = o.password ?? 'correct-horse-1';
  const res = await project.client.post('/auth/password/sign-up', { email, password });
  expect(res.status).toBe(200);
  return { email, password, userId: res.body.user_id as string, accessToken: res.body.access_token as string, refreshToken: res.body.refresh_token as string };
}
