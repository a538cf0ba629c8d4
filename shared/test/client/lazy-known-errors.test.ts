// The client library loads the known-error catalogue with the first known error it decodes (known-error-catalogue.ts).
// A fresh process (this test's own has the catalogue loaded already) checks that the library alone doesn't load it,
// and that errors arriving before it is loaded still come back as instances of their catalogue classes.
import { expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localServer } from './support.ts';

setDefaultTimeout(30_000);

test('a known error decoded before the catalogue is loaded is an instance of its class, with the server message', async () => {
  const knownError = (code: string, error: string, details?: object) =>
    Response.json({ code, error, ...(details ? { details } : {}) }, { status: 400, headers: { 'x-stack-known-error': code } });
  const server = localServer(async (_req, { path }) => {
    if (path === '/api/v1/auth/password/sign-in') return knownError('EMAIL_PASSWORD_MISMATCH', 'Wrong e-mail or password (server text).');
    if (path === '/api/v1/auth/password/sign-up') return knownError('PASSWORD_TOO_SHORT', 'Password too short.', { min_length: 8 });
    return undefined;
  });
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-lazy-errors-'));
  const src = join(import.meta.dir, '../../src');
  try {
    const script = join(dir, 'run.ts');
    writeFileSync(
      script,
      `import { GatehouseClientApp } from ${JSON.stringify(join(src, 'client/index.ts'))};
import { knownErrorByCode } from ${JSON.stringify(join(src, 'known-errors/base.ts'))};
const before = knownErrorByCode.size;
const app = new GatehouseClientApp({ baseUrl: ${JSON.stringify(server.url)}, projectId: 'p', publishableClientKey: 'pck', tokenStore: 'memory',
  timers: { sleep: async () => {} }, logger: { warn() {} } });
const signIn = await app.signInWithCredential({ email: 'a@example.com', password: 'password-1', noRedirect: true });
const signUp = await app.signUpWithCredential({ email: 'a@example.com', password: 'short', noRedirect: true, verificationCallbackUrl: 'http://localhost/verify' });
const { KnownErrors, isKnownErrorInFamily } = await import(${JSON.stringify(join(src, 'known-errors.ts'))});
console.log(JSON.stringify({
  before,
  signIn: { status: signIn.status, isClass: signIn.error instanceof KnownErrors.EmailPasswordMismatch, message: signIn.error?.message },
  signUp: { status: signUp.status, isClass: signUp.error instanceof KnownErrors.PasswordTooShort, family: isKnownErrorInFamily(signUp.error, 'PASSWORD_REQUIREMENTS_NOT_MET'), details: signUp.error?.details },
}));
`,
    );
    const proc = Bun.spawn([process.execPath, script], { stdout: 'pipe', stderr: 'pipe' });
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    expect(await proc.exited, err).toBe(0);
    expect(JSON.parse(out.trim())).toEqual({
      before: 0,
      signIn: { status: 'error', isClass: true, message: 'Wrong e-mail or password (server text).' },
      signUp: { status: 'error', isClass: true, family: true, details: { min_length: 8 } },
    });
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
