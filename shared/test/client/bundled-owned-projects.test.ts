// An app that names only GatehouseClientApp, bundled with tree shaking (the package is `sideEffects: false`), still
// lists its owner's projects with an admin app each. The admin app class was once reached through a factory that
// admin-app.ts registered when it loaded: a bundler dropped that module from such an app, and listing threw "Admin app
// class not loaded". Now the owned-project model loads the class with import() (models/owned-projects.ts).
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtExpiringIn, localServer } from './support.ts';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-owned-bundle-'));
const stops: (() => void)[] = [];
afterAll(() => {
  for (const stop of stops) stop();
  rmSync(dir, { recursive: true, force: true });
});

const project = (id: string) => ({
  id, display_name: `Project ${id}`, description: '', created_at_millis: 1, user_count: 0, is_production_mode: false,
  config: {
    id: `config-${id}`, enabled_oauth_providers: [], allow_localhost: true, sign_up_enabled: true, credential_enabled: true,
    magic_link_enabled: false, passkey_enabled: false, client_team_creation_enabled: false, client_user_deletion_enabled: false,
    create_team_on_sign_up: false, allow_user_api_keys: false, allow_team_api_keys: false, domains: [], oauth_providers: [],
    email_config: { type: 'shared' }, team_creator_default_permissions: [], team_member_default_permissions: [],
    user_default_permissions: [], oauth_account_merge_strategy: 'link_method',
  },
});
const owner = {
  id: 'u1', display_name: null, primary_email: 'owner@example.com', primary_email_verified: true, profile_image_url: null,
  signed_up_at_millis: 1, client_metadata: null, client_read_only_metadata: null, has_password: true, auth_with_email: true,
  otp_auth_enabled: false, passkey_auth_enabled: false, oauth_providers: [], requires_totp_mfa: false, is_anonymous: false,
  selected_team: null, selected_team_id: null,
};

test('a tree-shaken bundle naming only GatehouseClientApp lists owned projects, each with its admin app', async () => {
  const server = localServer((req) => {
    const path = new URL(req.url).pathname.replace('/api/v1', '');
    if (path === '/users/me') return Response.json(owner);
    if (path === '/internal/projects') return Response.json({ items: [project('p1')], is_paginated: false });
    return undefined;
  });
  stops.push(server.stop);

  const entry = join(dir, 'page.ts');
  writeFileSync(entry, `import { GatehouseClientApp } from ${JSON.stringify(join(import.meta.dir, '../../src/client/index.ts'))};
export async function ownedProjects(baseUrl, accessToken) {
  const app = new GatehouseClientApp({ projectId: 'internal', publishableClientKey: 'pck', baseUrl, tokenStore: 'memory', browser: null });
  app._core.requireTokenStore().set({ refreshToken: 'rt', accessToken });
  const user = await app.getUser({ or: 'throw' });
  return (await user.listOwnedProjects()).map((p) => ({ id: p.id, appProjectId: p.app.projectId, isAdminApp: typeof p.app.createInternalApiKey === 'function' }));
}
`);
  const build = await Bun.build({ entrypoints: [entry], outdir: join(dir, 'out'), target: 'browser', format: 'esm', splitting: true, minify: true });
  expect(build.success).toBe(true);
  const bundled = await import(join(dir, 'out', 'page.js'));
  expect(await bundled.ownedProjects(server.url, jwtExpiringIn(600_000))).toEqual([{ id: 'p1', appProjectId: 'p1', isAdminApp: true }]);
});
