// The project as an OpenID provider (issue 27): a user's consents as the project's admin or back end sees them
// (GET /oauth-provider/consents?user_id=, DELETE /oauth-provider/consents/{client_id}?user_id=; the console's user
// page), with tokens issued through openid-client: a revoke ends the grant's refresh and access tokens, and consent is
// asked again; each user and each project sees only its own.
import { describe, expect, test } from 'bun:test';
import { expectKnownError, sharedService } from './support/service';
import { newProject, signUp } from './support/projects';
import { discover, oauthErrorOf, oidc, registerClient, signInThroughConsentApi } from './support/oidc-relying-party';

const svc = await sharedService();
const project = await newProject(svc);
const REDIRECT = 'https://app.example.com/callback';

describe("a user's consents (admin and server API)", () => {
  test('listed with the scopes allowed; revoked with their tokens; other users and projects untouched', async () => {
    const web = await registerClient(project, { display_name: 'Partner app', client_type: 'confidential', redirect_uris: [REDIRECT], logo_url: 'https://app.example.com/logo.png' });
    const cli = await registerClient(project, { display_name: 'Command line', client_type: 'public', redirect_uris: ['http://127.0.0.1:9000/cb'] });
    const webConfig = await discover(svc, project.id, web.clientId, web.clientSecret);
    const cliConfig = await discover(svc, project.id, cli.clientId);
    const user = await signUp(project);
    const other = await signUp(project);
    const before = Date.now();
    const tokens = await signInThroughConsentApi(svc, project, webConfig, user.accessToken, REDIRECT);
    await signInThroughConsentApi(svc, project, cliConfig, user.accessToken, 'http://127.0.0.1:9000/cb', 'openid email');
    const othersTokens = await signInThroughConsentApi(svc, project, webConfig, other.accessToken, REDIRECT, 'openid');

    const listed = await project.admin.get(`/oauth-provider/consents?user_id=${user.userId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      { client_id: web.clientId, display_name: 'Partner app', logo_url: 'https://app.example.com/logo.png', scopes: ['openid', 'profile', 'email', 'offline_access'], scope_descriptions: {}, granted_at_millis: expect.any(Number) },
      { client_id: cli.clientId, display_name: 'Command line', logo_url: null, scopes: ['openid', 'email'], scope_descriptions: {}, granted_at_millis: expect.any(Number) },
    ]);
    expect(listed.body.items[0].granted_at_millis).toBeGreaterThanOrEqual(before - 1000);
    // The server key sees the same.
    expect((await project.server.get(`/oauth-provider/consents?user_id=${user.userId}`)).body.items.length).toBe(2);

    expect((await project.admin.delete(`/oauth-provider/consents/${web.clientId}?user_id=${user.userId}`)).body).toEqual({ success: true });
    expect((await project.admin.get(`/oauth-provider/consents?user_id=${user.userId}`)).body.items.map((a: { client_id: string }) => a.client_id)).toEqual([cli.clientId]);
    // Its refresh and access tokens are dead; the other user's grant to the same client lives.
    expect(await oauthErrorOf(oidc.refreshTokenGrant(webConfig, tokens.refresh_token!))).toBe('invalid_grant');
    expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(false);
    expect((await oidc.tokenIntrospection(webConfig, othersTokens.access_token)).active).toBe(true);
    expect((await project.admin.get(`/oauth-provider/consents?user_id=${other.userId}`)).body.items.map((a: { client_id: string }) => a.client_id)).toEqual([web.clientId]);
    // Revoked again: there is no such consent any more.
    expectKnownError(await project.admin.delete(`/oauth-provider/consents/${web.clientId}?user_id=${user.userId}`), 'OAUTH_PROVIDER_CLIENT_NOT_FOUND', 404);
  });

  test('a missing or foreign user is USER_NOT_FOUND; a bad user id a schema error; the client key may not', async () => {
    const user = await signUp(project);
    const otherProject = await newProject(svc);
    expectKnownError(await otherProject.admin.get(`/oauth-provider/consents?user_id=${user.userId}`), 'USER_NOT_FOUND', 404);
    expectKnownError(await otherProject.admin.delete(`/oauth-provider/consents/ghc_x?user_id=${user.userId}`), 'USER_NOT_FOUND', 404);
    expectKnownError(await project.admin.get('/oauth-provider/consents?user_id=not-a-uuid'), 'SCHEMA_ERROR', 400);
    expectKnownError(await project.admin.get('/oauth-provider/consents'), 'SCHEMA_ERROR', 400);
    expect((await project.client.get(`/oauth-provider/consents?user_id=${user.userId}`, { accessToken: user.accessToken })).status).toBeGreaterThanOrEqual(400);
    expect((await project.admin.get(`/oauth-provider/consents?user_id=${user.userId}`)).body).toEqual({ items: [], is_paginated: false });
  });
});
