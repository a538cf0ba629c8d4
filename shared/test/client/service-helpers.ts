// Shared setup for the service-backed client tests.
import { expect } from 'bun:test';
import { uniqueEmail, type SharedService } from '../../../service/test/support/service.ts';
import { type TestProject } from '../../../service/test/support/projects.ts';
import { GatehouseAdminApp, GatehouseClientApp, GatehouseServerApp, type GatehouseClientAppOptions } from '../../src/client/index.ts';

export const CALLBACK = 'http://localhost:3000/handler';

export function clientFor(p: TestProject, extra: Partial<GatehouseClientAppOptions> = {}) {
  return new GatehouseClientApp({ baseUrl: p.url, projectId: p.id, publishableClientKey: p.keys.publishableClientKey, tokenStore: 'memory', browser: null, ...extra });
}

export function serverFor(p: TestProject) {
  return new GatehouseServerApp({
    baseUrl: p.url,
    projectId: p.id,
    publishableClientKey: p.keys.publishableClientKey,
    secretServerKey: p.keys.secretServerKey,
    tokenStore: null,
  });
}

export function adminFor(p: TestProject) {
  return new GatehouseAdminApp({
    baseUrl: p.url,
    projectId: p.id,
    publishableClientKey: p.keys.publishableClientKey,
    secretServerKey: p.keys.secretServerKey,
    superSecretAdminKey: p.keys.superSecretAdminKey,
    tokenStore: null,
  });
}

/** A client app with a freshly signed-up user. */
export async function signedUpClient(p: TestProject, extra: Partial<GatehouseClientAppOptions> = {}) {
  const app = clientFor(p, extra);
  const email = uniqueEmail('c');
  const password = 'correct-horse-1';
  const res = await app.signUpWithCredential({ email, password, noRedirect: true, verificationCallbackUrl: `${CALLBACK}/email-verification` });
  expect(res.status).toBe('ok');
  const user = await app.getUser({ or: 'throw' });
  return { app, user, email, password };
}

/** The first mail to `to` whose subject matches, from the shared service's SMTP server. */
export function mailTo(svc: SharedService, to: string, subject?: RegExp) {
  return svc.mailbox.waitForMail((m) => m.to.includes(to) && (!subject || subject.test(m.subject)), 15_000);
}
