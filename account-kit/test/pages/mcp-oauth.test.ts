// An MCP server protected by a project's OpenID provider (issue 27), end to end with the MCP SDK: the server
// (Streamable HTTP) answers 401 naming its protected-resource metadata (RFC 9728); the SDK's client finds the
// project's issuer there, registers itself (RFC 7591), sends the person through the account kit's sign-in and consent
// pages in Chromium, exchanges the code for a token bound to the server (RFC 8707), and calls a tool. The server
// checks the JWT with jose against the issuer's JWKS, audience its own URL; a token for another resource is refused.
import { afterAll, describe, expect, test } from 'bun:test';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { newProject, openDemo, setupBrowserSuite, signUp } from '../support/browser';
import { discover, oidc, registerClient } from '../../../service/test/support/oidc-relying-party';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });
const issuer = `${svc.url}/oidc/${project.id}`;
const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));

/** The MCP server: every request needs a bearer JWT of the project's issuer whose audience is this server. */
const mcpServer = Bun.serve({
  port: 0, hostname: '127.0.0.1',
  async fetch(request) {
    if (new URL(request.url).pathname !== '/mcp') return new Response('not found', { status: 404 });
    const metadataUrl = `${issuer}/protected-resource?resource=${encodeURIComponent(RESOURCE)}`;
    const challenge = (error?: string) => new Response(JSON.stringify({ error: error ?? 'unauthorized' }), {
      status: 401, headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer ${error ? `error="${error}", ` : ''}resource_metadata="${metadataUrl}"` },
    });
    const token = /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    if (!token) return challenge();
    let claims: JWTPayload;
    try {
      claims = (await jwtVerify(token, jwks, { issuer, audience: RESOURCE, typ: 'at+jwt' })).payload;
    } catch {
      return challenge('invalid_token');
    }
    const server = new McpServer({ name: 'gatehouse-test-mcp', version: '1.0.0' });
    server.registerTool('whoami', { description: 'The user the bearer token was issued for' }, async () => ({ content: [{ type: 'text', text: `user ${claims.sub}` }] }));
    // Stateless: one server and transport per request, JSON answers.
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(request, { authInfo: { token, clientId: String(claims.client_id), scopes: [] } });
  },
});
const RESOURCE = `http://127.0.0.1:${mcpServer.port}/mcp`;
const OTHER_RESOURCE = 'https://other-api.example.com/';
const callbackServer = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('MCP client callback') });
const REDIRECT = `http://127.0.0.1:${callbackServer.port}/callback`;
afterAll(() => { mcpServer.stop(true); callbackServer.stop(true); });

await project.admin.patch('/oauth-provider/settings', { dynamic_client_registration: true, resources: [RESOURCE, OTHER_RESOURCE] });

/** What an MCP host keeps for one server, in memory: the registered client, the tokens, the PKCE verifier. */
class MemoryOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get redirectUrl() { return REDIRECT; }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Test MCP host', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', scope: 'openid' };
  }
  clientInformation() { return this.client; }
  saveClientInformation(client: OAuthClientInformationMixed) { this.client = client; }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(verifier: string) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
}

describe('an MCP server protected by the project', () => {
  test('the SDK client discovers the issuer from the 401, registers, the person signs in and consents in the browser, the tool answers', async () => {
    const user = await signUp(project);
    const oauth = new MemoryOAuthProvider();
    const first = new StreamableHTTPClientTransport(new URL(RESOURCE), { authProvider: oauth });
    await expect(new Client({ name: 'test-host', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    // Registered dynamically as a public client, and sent to the project's authorization endpoint for this server.
    expect(oauth.client?.client_id).toMatch(/^ghc_/);
    expect((await project.admin.get(`/oauth-provider/clients/${oauth.client!.client_id}`)).body).toMatchObject({ client_type: 'public', display_name: 'Test MCP host' });
    const authorizationUrl = oauth.authorizationUrl!;
    expect(authorizationUrl.href.startsWith(`${issuer}/auth?`)).toBe(true);
    expect(authorizationUrl.searchParams.get('resource')).toBe(RESOURCE);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

    const { context, page } = await openDemo(svc, { project });
    await page.goto(authorizationUrl.href);
    await page.waitForURL((u) => u.pathname === '/handler/sign-in');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('heading', { name: 'Test MCP host wants to access your account' }).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((u) => u.href.startsWith(REDIRECT));
    const code = new URL(page.url()).searchParams.get('code');
    await context.close();
    expect(code).toBeString();

    await first.finishAuth(code!);
    const client = new Client({ name: 'test-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(RESOURCE), { authProvider: oauth }));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami']);
    expect(await client.callTool({ name: 'whoami', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: `user ${user.userId}` }] });
    await client.close();
  });

  test('a token of the same issuer for another resource is refused (401 with the metadata link)', async () => {
    const machine = await registerClient(project, { display_name: 'Worker', client_type: 'confidential', grant_types: ['client_credentials'], scopes: ['openid'] });
    const config = await discover(svc, project.id, machine.clientId, machine.clientSecret);
    const other = await oidc.clientCredentialsGrant(config, { resource: OTHER_RESOURCE });
    const mine = await oidc.clientCredentialsGrant(config, { resource: RESOURCE });
    const call = (token?: string) => fetch(RESOURCE, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    const refused = await call(other.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${issuer}/protected-resource?resource=`);
    expect((await call()).status).toBe(401);
    // The same client's token for this server is taken: the refusal is the audience's.
    expect((await call(mine.access_token)).status).toBe(200);
  });
});
