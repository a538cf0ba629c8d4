// A typed client generated from the served OpenAPI document with openapi-typescript (issue 15 §3) compiles, and its
// types are precise: the x-stack-* headers each route takes (the access-type enum follows the route's access types),
// request bodies, and known-error bodies whose `code` is the union of the codes that route documents. The
// `@ts-expect-error` lines must each be an error, or tsc fails (TS2578).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS from 'openapi-typescript';
import { sharedService } from './support/service';

setDefaultTimeout(60_000);
const REPO = join(import.meta.dir, '../..');
// Inside the repository's node_modules so that tsc finds the same TypeScript the project uses.
mkdirSync(join(REPO, 'node_modules/.cache'), { recursive: true });
const dir = mkdtempSync(join(REPO, 'node_modules/.cache/openapi-typescript-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let doc: unknown;
beforeAll(async () => {
  const svc = await sharedService();
  doc = await (await fetch(`${svc.url}/api/v1/openapi.json`)).json();
}, 60_000);

const USAGE = `import type { components, operations, paths } from './api';

type SignUp = operations['postAuthPasswordSignUp'];
export const headers: SignUp['parameters']['header'] = { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' };
// @ts-expect-error an access type that does not exist
export const badAccess: SignUp['parameters']['header'] = { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'root' };
// @ts-expect-error the project id header is required
export const noProject: SignUp['parameters']['header'] = { 'x-stack-access-type': 'client' };
type CreateKeys = paths['/internal/api-keys']['post'];
// @ts-expect-error /internal/api-keys takes admin access only
export const clientOnAdminRoute: CreateKeys['parameters']['header']['x-stack-access-type'] = 'client';

export const body: SignUp['requestBody']['content']['application/json'] = { email: 'a@example.com', password: 'correct-horse-1' };
// @ts-expect-error email must be a string
export const badBody: SignUp['requestBody']['content']['application/json'] = { email: 1, password: 'x' };
export const answer = (r: SignUp['responses'][200]['content']['application/json']): string => r.access_token + r.refresh_token + r.user_id;

type SignUpError = SignUp['responses'][409]['content']['application/json'];
export const taken: SignUpError = { code: 'USER_EMAIL_ALREADY_EXISTS', error: 'User email already exists.' };
// @ts-expect-error a code sign-up does not answer with 409
export const notThisRoute: SignUpError = { code: 'TEAM_NOT_FOUND', error: '' };
export const knownErrorHeader: SignUp['responses'][400]['headers']['x-stack-known-error'] = 'SCHEMA_ERROR';
export const schemaError: components['schemas']['KnownError'] = { code: 'SCHEMA_ERROR', error: 'Request validation failed' };
`;

test('the generated client compiles, with typed headers, bodies and error bodies', async () => {
  const generated = await openapiTS(doc as never);
  expect(generated).toContain('export interface operations');
  writeFileSync(join(dir, 'api.ts'), generated);
  writeFileSync(join(dir, 'usage.ts'), USAGE);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', skipLibCheck: true, types: [] },
    files: ['api.ts', 'usage.ts'],
  }));
  const proc = Bun.spawn([join(REPO, 'node_modules/.bin/tsc'), '-p', join(dir, 'tsconfig.json')], { stdout: 'pipe', stderr: 'pipe' });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  expect({ code: await proc.exited, out: out + err }).toEqual({ code: 0, out: '' });
});
