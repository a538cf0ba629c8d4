// Passkey registration and sign-in through the apps against the real service, with a software authenticator.
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sharedService, type SharedService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { KnownErrors } from '../../src/known-errors.ts';
import { clientFor, signedUpClient } from './service-helpers.ts';
import { fakeBrowser } from './support.ts';
import { softAuthenticator } from './soft-authenticator.ts';

setDefaultTimeout(90_000);

let svc: SharedService;
let project: TestProject;
const ORIGIN = 'http://localhost:4321';

beforeAll(async () => {
  svc = await sharedService();
  project = await newProject(svc, { config: { passkey_enabled: true } });
}, 180_000);

describe('passkeys', () => {
  test('register a passkey on the account page, then sign in with it on another page', async () => {
    const authenticator = softAuthenticator(ORIGIN);
    const { app, user } = await signedUpClient(project, {
      browser: fakeBrowser(`${ORIGIN}/handler/account-settings`),
      redirectMethod: 'window',
      webauthn: authenticator,
    });
    expect(await user.registerPasskey()).toEqual({ status: 'ok', data: undefined });
    expect((await app.getUser({ or: 'throw' })).passkeyAuthEnabled).toBe(true);

    const browser = fakeBrowser(`${ORIGIN}/handler/sign-in`);
    const other = clientFor(project, { browser, redirectMethod: 'window', webauthn: authenticator, timers: { sleep: async () => {} } });
    expect(await other.signInWithPasskey()).toEqual({ status: 'ok', data: undefined });
    expect((await other.getUser({ or: 'throw' })).id).toBe(user.id);
    expect(browser.navigations).toEqual([{ url: '/', replace: true }]);
  });

  test('an unknown credential fails as PasskeyAuthenticationFailed', async () => {
    const stranger = softAuthenticator(ORIGIN);
    await stranger.startRegistration({ optionsJSON: { rp: { id: 'localhost' }, user: { id: 'x' }, challenge: 'TU9DSw' } });
    const app = clientFor(project, { browser: fakeBrowser(`${ORIGIN}/`), webauthn: stranger });
    const res = await app.signInWithPasskey();
    expect(res.status === 'error' && res.error).toBeInstanceOf(KnownErrors.PasskeyAuthenticationFailed);
  });
});
