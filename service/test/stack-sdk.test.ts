// Stack Auth's own SDK (@stackframe/js 2.8.3, unmodified) against Gatehouse, with a project's default settings: it
// signs up, verifies the address from the mail, signs out and in, resets a forgotten password, and (magic links on)
// signs in with a mailed code. Issue 30 §4: an address whose account is unverified gets a code like any address;
// the SDK meets the protocol's USER_EMAIL_ALREADY_EXISTS when it redeems it.
import { describe, expect, test } from 'bun:test';
import { StackClientApp } from '@stackframe/js';
import { uniqueEmail } from './support/service';
import { newProject, type TestProject } from './support/projects';
import { setupSuite } from './support/suite';
import { extractCode, extractOtp } from './support/smtp';

const { svc, p } = await setupSuite();
const CALLBACK = 'http://localhost:3000/handler';

function sdkApp(project: TestProject) {
  return new StackClientApp({ baseUrl: svc.url, projectId: project.id, publishableClientKey: project.keys.publishableClientKey, tokenStore: 'memory' });
}

/** The newest mail to `email` whose subject starts with `subject`, received after `since`. */
const mailTo = (email: string, subject: string, since: number) =>
  svc.mailbox.waitForMail((m) => m.to.includes(email) && m.subject.startsWith(subject) && m.receivedAt >= since);

describe('@stackframe/js with default settings', () => {
  test('signs up, verifies the address, signs out and in again, and resets a forgotten password', async () => {
    const app = sdkApp(p);
    const email = uniqueEmail('sdk');
    const t0 = Date.now();
    expect(await app.signUpWithCredential({ email, password: 'first-password-1', noRedirect: true, verificationCallbackUrl: `${CALLBACK}/email-verification` }))
      .toEqual({ status: 'ok', data: undefined });
    const user = await app.getUser({ or: 'throw' });
    expect(user.primaryEmail).toBe(email);
    expect(user.primaryEmailVerified).toBe(false);

    const verification = await mailTo(email, 'Verify your email', t0);
    expect(await app.verifyEmail(extractCode(verification)!)).toEqual({ status: 'ok', data: undefined });
    expect((await app.getUser({ or: 'throw' })).primaryEmailVerified).toBe(true);

    await user.signOut();
    expect(await app.getUser()).toBeNull();
    expect(await app.signInWithCredential({ email, password: 'first-password-1', noRedirect: true })).toEqual({ status: 'ok', data: undefined });
    expect((await app.getUser({ or: 'throw' })).id).toBe(user.id);

    const t1 = Date.now();
    expect(await app.sendForgotPasswordEmail(email, { callbackUrl: `${CALLBACK}/password-reset` })).toEqual({ status: 'ok', data: undefined });
    const reset = await mailTo(email, 'Reset your password', t1);
    expect(await app.resetPassword({ code: extractCode(reset)!, password: 'second-password-2' })).toEqual({ status: 'ok', data: undefined });
    const fresh = sdkApp(p);
    const old = await fresh.signInWithCredential({ email, password: 'first-password-1', noRedirect: true });
    expect(old.status).toBe('error');
    expect(await fresh.signInWithCredential({ email, password: 'second-password-2', noRedirect: true })).toEqual({ status: 'ok', data: undefined });
    expect((await fresh.getUser({ or: 'throw' })).id).toBe(user.id);
  });

  test('magic links: a new address signs in with the mailed code; an unverified account\'s address meets USER_EMAIL_ALREADY_EXISTS at redemption', async () => {
    const project = await newProject(svc, { config: { magic_link_enabled: true } });
    const app = sdkApp(project);
    const email = uniqueEmail('sdk-otp');
    const t0 = Date.now();
    const sent = await app.sendMagicLinkEmail(email, { callbackUrl: `${CALLBACK}/magic-link-callback` });
    expect(sent.status).toBe('ok');
    const mail = await mailTo(email, 'Sign in to', t0);
    const nonce = (sent as { data: { nonce: string } }).data.nonce;
    expect(await app.signInWithMagicLink(extractOtp(mail)! + nonce, { noRedirect: true })).toEqual({ status: 'ok', data: undefined });
    expect((await app.getUser({ or: 'throw' })).primaryEmail).toBe(email);

    // A password account whose address is not verified: sending answers as for any address.
    const other = sdkApp(project);
    const taken = uniqueEmail('sdk-unverified');
    expect((await other.signUpWithCredential({ email: taken, password: 'first-password-1', noRedirect: true, verificationCallbackUrl: `${CALLBACK}/email-verification` })).status).toBe('ok');
    const t1 = Date.now();
    const visitor = sdkApp(project);
    const again = await visitor.sendMagicLinkEmail(taken, { callbackUrl: `${CALLBACK}/magic-link-callback` });
    expect(again.status).toBe('ok');
    const code = extractCode(await mailTo(taken, 'Sign in to', t1))!;
    // The SDK throws the known errors its Result does not list (as it did when sending answered 409).
    const redeemed = await visitor.signInWithMagicLink(code, { noRedirect: true }).then(() => null, (err: { errorCode?: string }) => err);
    expect(redeemed?.errorCode).toBe('USER_EMAIL_ALREADY_EXISTS');
    expect(await visitor.getUser()).toBeNull();
  });

  test("custom claims in the project's access tokens (issue 27, in_access_token): the SDK signs in, reads and changes its user as before", async () => {
    const project = await newProject(svc);
    const settings = await project.admin.patch('/oauth-provider/settings', { claims: [{ claim: 'tier', source: 'server_metadata.tier', scope: 'openid', in_access_token: true }] });
    expect(settings.status).toBe(200);
    const app = sdkApp(project);
    const email = uniqueEmail('sdk-claims');
    expect((await app.signUpWithCredential({ email, password: 'first-password-1', noRedirect: true, verificationCallbackUrl: `${CALLBACK}/email-verification` })).status).toBe('ok');
    const user = await app.getUser({ or: 'throw' });
    expect((await project.server.patch(`/users/${user.id}`, { server_metadata: { tier: 'gold' } })).status).toBe(200);
    await user.signOut();
    expect(await app.signInWithCredential({ email, password: 'first-password-1', noRedirect: true })).toEqual({ status: 'ok', data: undefined });
    const signedIn = await app.getUser({ or: 'throw' });
    const { accessToken } = await signedIn.getAuthJson();
    const payload = JSON.parse(Buffer.from(accessToken!.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(payload).toMatchObject({ sub: user.id, tier: 'gold' });
    expect(signedIn.primaryEmail).toBe(email);
    // A profile change through the SDK and a fresh read: the claim-carrying token is accepted throughout.
    await signedIn.update({ displayName: 'Claims person' });
    expect((await sdkApp(project).getUser())).toBeNull();
    expect((await app.getUser({ or: 'throw' })).displayName).toBe('Claims person');
  });
});
