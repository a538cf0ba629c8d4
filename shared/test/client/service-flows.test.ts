// Email-based flows, contact channels, MFA and admin configuration through the apps (real service + real SMTP).
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import * as OTPAuth from 'otpauth';
import { sharedService, uniqueEmail, type SharedService } from '../../../service/test/support/service.ts';
import { newProject, type TestProject } from '../../../service/test/support/projects.ts';
import { extractCode, extractOtp } from '../../../service/test/support/smtp.ts';
import { KnownErrors } from '../../src/known-errors.ts';
import { adminFor, CALLBACK, clientFor, mailTo, serverFor, signedUpClient } from './service-helpers.ts';

setDefaultTimeout(90_000);

let svc: SharedService;
let project: TestProject;

beforeAll(async () => {
  svc = await sharedService();
  project = await newProject(svc, { config: { magic_link_enabled: true } });
}, 180_000);

describe('contact channels and email verification', () => {
  test('create, list, update, send verification, verify with the emailed code, delete', async () => {
    const { app, user, email } = await signedUpClient(project);
    const extra = uniqueEmail('extra');
    const channel = await user.createContactChannel({ type: 'email', value: extra, usedForAuth: false });
    expect(channel).toMatchObject({ value: extra, type: 'email', isPrimary: false, isVerified: false, usedForAuth: false });
    const channels = await user.listContactChannels();
    expect(channels.map((c) => c.value).sort()).toEqual([email, extra].sort());

    await channel.sendVerificationEmail({ callbackUrl: `${CALLBACK}/email-verification` });
    const code = extractCode(await mailTo(svc, extra))!;
    expect(await app.verifyEmail(code)).toEqual({ status: 'ok', data: undefined });
    const verified = (await user.listContactChannels()).find((c) => c.id === channel.id)!;
    expect(verified.isVerified).toBe(true);
    await verified.sendVerificationEmail({ callbackUrl: `${CALLBACK}/email-verification` }); // already verified: swallowed
    const reused = await app.verifyEmail(code);
    expect(reused.status === 'error' && reused.error).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);

    await verified.update({ isPrimary: true });
    expect((await app.getUser({ or: 'throw' })).primaryEmail).toBe(extra);
    await verified.delete();
    expect((await user.listContactChannels()).map((c) => c.value)).toEqual([email]);
  });

  test('the primary email verification from sign-up verifies through verifyEmail', async () => {
    const { app, email } = await signedUpClient(project);
    const code = extractCode(await mailTo(svc, email, /Verify/))!;
    expect((await app.verifyEmail(code)).status).toBe('ok');
    expect((await app.getUser({ or: 'throw' })).primaryEmailVerified).toBe(true);
  });

  test('server contact channels: created verified, updated, deleted', async () => {
    const app = serverFor(project);
    const user = await app.createUser({ primaryEmail: uniqueEmail('scc') });
    const value = uniqueEmail('scc2');
    const channel = await user.createContactChannel({ type: 'email', value, usedForAuth: true, isVerified: true });
    expect(channel.isVerified).toBe(true);
    await channel.update({ isVerified: false });
    expect((await user.listContactChannels()).find((c) => c.id === channel.id)!.isVerified).toBe(false);
    await channel.delete();
    expect((await user.listContactChannels()).map((c) => c.value)).not.toContain(value);
  });
});

describe('magic link / OTP', () => {
  test('the OTP typed by the user plus the nonce signs in a new user', async () => {
    const app = clientFor(project);
    const email = uniqueEmail('otp');
    const sent = await app.sendMagicLinkEmail(email, { callbackUrl: `${CALLBACK}/magic-link-callback` });
    if (sent.status !== 'ok') throw sent.error;
    expect(sent.data.nonce).toMatch(/^[0-9a-hjkmnp-tv-z]{39}$/);
    const otp = extractOtp(await mailTo(svc, email))!;
    expect(await app.signInWithMagicLink(otp + sent.data.nonce, { noRedirect: true })).toEqual({ status: 'ok', data: undefined });
    const user = await app.getUser({ or: 'throw' });
    expect(user).toMatchObject({ primaryEmail: email, primaryEmailVerified: true, otpAuthEnabled: true });
  });

  test('the link code works once; an untrusted callback URL is a returned error', async () => {
    const app = clientFor(project);
    const email = uniqueEmail('link');
    expect((await app.sendMagicLinkEmail(email, { callbackUrl: `${CALLBACK}/magic-link-callback` })).status).toBe('ok');
    const code = extractCode(await mailTo(svc, email))!;
    expect((await app.signInWithMagicLink(code, { noRedirect: true })).status).toBe('ok');
    const second = await clientFor(project).signInWithMagicLink(code, { noRedirect: true });
    expect(second.status === 'error' && second.error).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
    const untrusted = await app.sendMagicLinkEmail(uniqueEmail(), { callbackUrl: 'https://evil.example/cb' });
    expect(untrusted.status === 'error' && untrusted.error).toBeInstanceOf(KnownErrors.RedirectUrlNotWhitelisted);
  });
});

describe('password reset', () => {
  test('forgot-password mail → check code → reset → sign in with the new password', async () => {
    const { email } = await signedUpClient(project);
    const app = clientFor(project);
    expect((await app.sendForgotPasswordEmail(email, { callbackUrl: `${CALLBACK}/password-reset` })).status).toBe('ok');
    const code = extractCode(await mailTo(svc, email, /Reset/))!;
    expect(await app.verifyPasswordResetCode(code)).toEqual({ status: 'ok', data: undefined });
    expect(await app.resetPassword({ code, password: 'brand-new-password' })).toEqual({ status: 'ok', data: undefined });
    expect((await app.signInWithCredential({ email, password: 'brand-new-password', noRedirect: true })).status).toBe('ok');
    const bad = await app.verifyPasswordResetCode(code);
    expect(bad.status === 'error' && bad.error).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
  });
});

describe('multi-factor sign-in', () => {
  test('with a TOTP secret set, password sign-in asks for the code and completes; a wrong code is InvalidTotpCode', async () => {
    const { user, email, password } = await signedUpClient(project);
    const secret = crypto.getRandomValues(new Uint8Array(20));
    await user.update({ totpMultiFactorSecret: secret });
    const totp = new OTPAuth.TOTP({ secret: new OTPAuth.Secret({ buffer: secret.buffer as ArrayBuffer }), digits: 6, period: 30, algorithm: 'SHA1' });

    const asked: string[] = [];
    const good = clientFor(project, { mfaPrompt: ({ attemptCode }) => (asked.push(attemptCode), totp.generate()) });
    expect(await good.signInWithCredential({ email, password, noRedirect: true })).toEqual({ status: 'ok', data: undefined });
    expect(asked[0]).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    expect((await good.getUser({ or: 'throw' })).isMultiFactorRequired).toBe(true);

    const wrong = clientFor(project, { mfaPrompt: () => (totp.generate() === '000000' ? '111111' : '000000') });
    const res = await wrong.signInWithCredential({ email, password, noRedirect: true });
    expect(res.status === 'error' && res.error).toBeInstanceOf(KnownErrors.InvalidTotpCode);
    const cancelled = clientFor(project, { mfaPrompt: () => null });
    const res2 = await cancelled.signInWithCredential({ email, password, noRedirect: true });
    expect(res2.status === 'error' && res2.error).toBeInstanceOf(KnownErrors.InvalidTotpCode);

    const me = await good.getUser({ or: 'throw' });
    await me.update({ totpMultiFactorSecret: null });
    expect((await good.getUser({ or: 'throw' })).isMultiFactorRequired).toBe(false);
  });
});

describe('multi-factor sign-in through verify (issue 25)', () => {
  test('a prompt that checks codes with verify keeps the attempt: wrong, wrong, right signs in with one password', async () => {
    const { user, email, password } = await signedUpClient(project);
    const secret = crypto.getRandomValues(new Uint8Array(20));
    await user.update({ totpMultiFactorSecret: secret });
    const totp = new OTPAuth.TOTP({ secret: new OTPAuth.Secret({ buffer: secret.buffer as ArrayBuffer }), digits: 6, period: 30, algorithm: 'SHA1' });
    const wrongCode = () => (totp.generate() === '000000' ? '111111' : '000000');
    const outcomes: string[] = [];
    const app = clientFor(project, {
      mfaPrompt: async ({ verify }) => {
        outcomes.push(await verify!(wrongCode()), await verify!(wrongCode()));
        if (30 - (Math.floor(Date.now() / 1000) % 30) < 3) await new Promise((r) => setTimeout(r, 4000));
        outcomes.push(await verify!(totp.generate()));
        return 'answered';
      },
    });
    expect(await app.signInWithCredential({ email, password, noRedirect: true })).toEqual({ status: 'ok', data: undefined });
    expect(outcomes).toEqual(['invalid', 'invalid', 'ok']);
  }, 120_000);
});

describe('admin configuration', () => {
  test('team and project permission definitions: create, list, update, delete', async () => {
    const app = adminFor(project);
    const created = await app.createTeamPermissionDefinition({ id: 'editor', description: 'Edits', containedPermissionIds: ['$read_members'] });
    expect(created).toEqual({ id: 'editor', description: 'Edits', containedPermissionIds: ['$read_members'] });
    expect((await app.listTeamPermissionDefinitions()).map((d) => d.id)).toEqual(expect.arrayContaining(['$update_team', 'admin', 'member', 'editor']));
    await app.updateTeamPermissionDefinition('editor', { description: 'Edits things' });
    expect((await app.listTeamPermissionDefinitions()).find((d) => d.id === 'editor')!.description).toBe('Edits things');
    const dup = await app.createProjectPermissionDefinition({ id: 'editor', containedPermissionIds: [] }).catch((e) => e);
    expect(dup).toBeInstanceOf(KnownErrors.PermissionIdAlreadyExists);
    await app.deleteTeamPermissionDefinition('editor');
    expect((await app.listTeamPermissionDefinitions()).map((d) => d.id)).not.toContain('editor');

    await app.createProjectPermissionDefinition({ id: 'beta_tester', containedPermissionIds: [] });
    const user = await serverFor(project).createUser({ primaryEmail: uniqueEmail('perm') });
    await user.grantPermission('beta_tester');
    expect(await user.hasPermission('beta_tester')).toBe(true);
    await user.revokePermission('beta_tester');
    expect(await user.hasPermission('beta_tester')).toBe(false);
    await app.deleteProjectPermissionDefinition('beta_tester');
    expect(await app.listProjectPermissionDefinitions()).toEqual([]);
  });

  test('email templates list the four protocol types, then the security notifications; sent emails are listed', async () => {
    const app = adminFor(project);
    const templates = await app.listEmailTemplates();
    expect(templates.map((t) => t.type)).toEqual([
      'email_verification', 'password_reset', 'magic_link', 'team_invitation',
      'password_changed', 'sign_in_email_added', 'sign_in_email_removed', 'mfa_disabled', 'passkey_added', 'passkey_removed',
      'mfa_enabled', 'otp_disabled', 'new_device_sign_in',
    ]);
    expect(templates.every((t) => t.isDefault)).toBe(true);
    const sent = await app.listSentEmails();
    expect(sent.length).toBeGreaterThan(0);
    expect(sent[0]!.sentAt).toBeInstanceOf(Date);
    expect(typeof sent[0]!.recipient).toBe('string');
  });

  test('a custom email config allows customising a template; reset restores the default', async () => {
    const p = await newProject(svc);
    const app = adminFor(p);
    const shared = await app.updateEmailTemplate('magic_link', { subject: 'x' }).catch((e) => e);
    expect(String(shared.message)).toContain('Cannot update email templates in shared email config.');
    const project = await app.getProject();
    await project.update({
      config: {
        emailConfig: { type: 'standard', host: '127.0.0.1', port: svc.mailbox.port, username: 'u', password: 'p', senderName: 'Tester', senderEmail: 'tester@example.com' },
      },
    });
    expect((await app.getProject()).config.emailConfig).toMatchObject({ type: 'standard', senderName: 'Tester', port: svc.mailbox.port });
    await app.updateEmailTemplate('magic_link', { subject: 'Your code: {{ otp }}' });
    const custom = (await app.listEmailTemplates()).find((t) => t.type === 'magic_link')!;
    expect(custom).toMatchObject({ subject: 'Your code: {{ otp }}', isDefault: false });
    await app.resetEmailTemplate('magic_link');
    expect((await app.listEmailTemplates()).find((t) => t.type === 'magic_link')!.isDefault).toBe(true);
  });

  test('sendTestEmail reports success, or the error message as a returned error', async () => {
    const app = adminFor(project);
    const config = { host: '127.0.0.1', port: svc.mailbox.port, username: 'u', password: 'p', senderName: 'Tester', senderEmail: 'tester@example.com' };
    const to = uniqueEmail('test-mail');
    expect(await app.sendTestEmail({ recipientEmail: to, emailConfig: config })).toEqual({ status: 'ok', data: undefined });
    expect((await mailTo(svc, to)).subject).toMatch(/^Test email from Gatehouse for /);
    const closed = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { open(s) { s.end(); }, data() {} } });
    const port = closed.port;
    closed.stop(true);
    const failed = await app.sendTestEmail({ recipientEmail: to, emailConfig: { ...config, port } });
    expect(failed.status).toBe('error');
    expect(failed.status === 'error' && failed.error.errorMessage.length).toBeGreaterThan(0);
  });
});
