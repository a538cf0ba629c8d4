// Email templates (protocol-resources §12.1) over HTTP, and a customised template reaching a real mailbox.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { Api, expectKnownError, sharedService, uniqueEmail, type SharedService } from './support/service';
import { newInternalUser, newProject, type TestProject } from './support/projects';
import { startSmtpFixture, type SmtpFixture } from './support/smtp';

// The machine may be busy (several suites at once): allow slow service round-trips.
setDefaultTimeout(60_000);

let svc: SharedService;
let smtp: SmtpFixture;
beforeAll(async () => {
  svc = await sharedService();
  smtp = await startSmtpFixture();
}, 60_000);
afterAll(async () => { await smtp?.stop(); });

const TYPES = [
  'email_verification', 'password_reset', 'magic_link', 'team_invitation',
  // Gatehouse's security notifications, after the protocol's four.
  'password_changed', 'sign_in_email_added', 'sign_in_email_removed', 'mfa_disabled', 'passkey_added', 'passkey_removed',
  'mfa_enabled', 'otp_disabled', 'new_device_sign_in',
];
const custom = { html: '<p>Custom {{ projectDisplayName }}: <a href="{{ emailVerificationLink }}">verify</a></p>', text: 'Custom: {{ emailVerificationLink }}' };

async function standardProject(): Promise<TestProject> {
  return newProject(svc, {
    displayName: 'Templated',
    config: { email_config: { type: 'standard', host: smtp.host, port: smtp.port, username: 'u', password: 'p', sender_name: 'Templated Co', sender_email: 'noreply@templated.example' } },
  });
}

describe('GET /email-templates', () => {
  test("the protocol's four defaults in protocol order, then the security notifications", async () => {
    const p = await newProject(svc);
    const res = await p.admin.get('/email-templates');
    expect(res.status).toBe(200);
    expect(res.body.is_paginated).toBe(false);
    expect(res.body.items.map((t: any) => [t.type, t.is_default])).toEqual(TYPES.map((t) => [t, true]));
    expect(res.body.items.slice(0, 4).map((t: any) => t.subject)).toEqual([
      'Verify your email at {{ projectDisplayName }}', 'Reset your password at {{ projectDisplayName }}',
      'Sign in to {{ projectDisplayName }}: Your code is {{ otp }}', 'You have been invited to join {{ teamDisplayName }}',
    ]);
    expect(res.body.items[4].subject).toBe('Your password at {{ projectDisplayName }} was changed');
    for (const t of res.body.items) {
      expect(Object.keys(t).sort()).toEqual(['content', 'is_default', 'subject', 'type']);
      expect(Object.keys(t.content).sort()).toEqual(['html', 'text']);
      expect(t.content.html.length).toBeGreaterThan(100);
    }
    const one = await p.admin.get('/email-templates/password_reset');
    expect(one.body).toEqual(res.body.items[1]);
    expectKnownError(await p.admin.get('/email-templates/welcome'), 'SCHEMA_ERROR', 400);
  });
});

describe('PATCH and DELETE /email-templates/{type}', () => {
  test('shared email config refuses customisation', async () => {
    const p = await newProject(svc);
    const res = await p.admin.patch('/email-templates/email_verification', { subject: 'Hi' });
    expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: 'Cannot update email templates in shared email config. Set up a custom email config to update email templates.' });
  });

  test('customise, fall back part by part, reset', async () => {
    const p = await standardProject();
    let res = await p.admin.patch('/email-templates/email_verification', { subject: 'Welcome to {{ projectDisplayName }}' });
    expect(res.status).toBe(200);
    const defaults = (await (await newProject(svc)).admin.get('/email-templates/email_verification')).body;
    expect(res.body).toEqual({ type: 'email_verification', subject: 'Welcome to {{ projectDisplayName }}', content: defaults.content, is_default: false });
    res = await p.admin.patch('/email-templates/email_verification', { content: custom });
    expect(res.body).toEqual({ type: 'email_verification', subject: 'Welcome to {{ projectDisplayName }}', content: custom, is_default: false });
    const list = await p.admin.get('/email-templates');
    expect(list.body.items.map((t: any) => t.is_default)).toEqual(TYPES.map((t) => t !== 'email_verification'));

    expect((await p.admin.delete('/email-templates/email_verification')).body).toEqual({ success: true });
    expect((await p.admin.get('/email-templates/email_verification')).body).toEqual(defaults);
    const again = await p.admin.delete('/email-templates/email_verification');
    expect({ status: again.status, text: again.text }).toEqual({ status: 404, text: 'Email template not found' });
  });

  test('invalid content is refused and nothing is written', async () => {
    const p = await standardProject();
    for (const content of [{ html: '<p>x</p>' }, { html: 1, text: 'x' }, { html: 'x', text: 'y', extra: 1 }, 'text', [], { root: { type: 'EmailLayout' } }]) {
      const res = await p.admin.patch('/email-templates/magic_link', { content });
      expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: 'Invalid email template content' });
    }
    expectKnownError(await p.admin.patch('/email-templates/magic_link', { content: null }), 'SCHEMA_ERROR', 400);
    expectKnownError(await p.admin.patch('/email-templates/magic_link', { subject: 5 }), 'SCHEMA_ERROR', 400);
    expectKnownError(await p.admin.patch('/email-templates/magic_link', { id: 'x' }), 'SCHEMA_ERROR', 400);
    expect((await p.admin.get('/email-templates/magic_link')).body.is_default).toBe(true);
  });

  test('a template that does not parse is refused with its part, line and tag; nothing is written', async () => {
    const p = await standardProject();
    let res = await p.admin.patch('/email-templates/email_verification', { subject: 'Confirm your {{ projectDisplayName }} email{{#if userDisplayName}}, {{ userDisplayName }}!' });
    expectKnownError(res, 'SCHEMA_ERROR', 400);
    expect(res.body.error).toContain('body.subject, line 1: {{#if userDisplayName}} is never closed with {{/if}}');
    res = await p.admin.patch('/email-templates/email_verification', { content: { html: '<p>\n{{#each links}}\n</p>', text: 'ok\n\n{{/if}}' } });
    expectKnownError(res, 'SCHEMA_ERROR', 400);
    expect(res.body.error).toContain('body.content.html, line 2: {{#each links}} is not a tag templates know');
    expect(res.body.error).toContain('body.content.text, line 3: {{/if}} closes no {{#if}}');
    expect((await p.admin.get('/email-templates/email_verification')).body.is_default).toBe(true);
    res = await p.admin.patch('/email-templates/email_verification', { subject: 'Confirm your email{{#if userDisplayName}}, {{ userDisplayName }}{{/if}}' });
    expect(res.status).toBe(200);
  });

  test('switching to shared email is refused while custom templates exist', async () => {
    const p = await standardProject();
    await p.admin.patch('/email-templates/password_reset', { subject: 'Reset' });
    let res = await p.admin.patch('/projects/current', { config: { email_config: { type: 'shared' } } });
    expect({ status: res.status, text: res.text }).toEqual({
      status: 400, text: 'Cannot change email service type to shared when custom templates are defined. Disable custom templates first, before changing the email service type.',
    });
    await p.admin.delete('/email-templates/password_reset');
    res = await p.admin.patch('/projects/current', { config: { email_config: { type: 'shared' } } });
    expect(res.status).toBe(200);
  });

  test('a customised template is what the flows send', async () => {
    const p = await standardProject();
    await p.admin.patch('/email-templates/email_verification', { subject: 'Custom verify for {{ projectDisplayName }}', content: custom });
    const email = uniqueEmail('templated');
    const res = await p.client.post('/auth/password/sign-up', { email, password: 'correct-horse-1', verification_callback_url: 'http://localhost:3000/verify' });
    expect(res.status).toBe(200);
    const mail = await smtp.waitForMail((m) => m.to.includes(email));
    expect(mail.subject).toBe('Custom verify for Templated');
    expect(mail.text.trim()).toMatch(/^Custom: http:\/\/localhost:3000\/verify\?code=\w+$/);
    expect(mail.html).toContain('<p>Custom Templated: <a href="http://localhost:3000/verify?code=');
    expect(mail.from).toContain('noreply@templated.example');
  });
});

describe('access and isolation', () => {
  test('client/server are refused; owners pass with their token, others do not', async () => {
    const p = await standardProject();
    for (const api of [p.client, p.server]) {
      expectKnownError(await api.get('/email-templates'), 'INSUFFICIENT_ACCESS_TYPE', 401);
      expectKnownError(await api.get('/email-templates/magic_link'), 'INSUFFICIENT_ACCESS_TYPE', 401);
      expectKnownError(await api.patch('/email-templates/magic_link', { subject: 'x' }), 'INSUFFICIENT_ACCESS_TYPE', 401);
      expectKnownError(await api.delete('/email-templates/magic_link'), 'INSUFFICIENT_ACCESS_TYPE', 401);
    }
    expect((await p.ownerAdmin.patch('/email-templates/magic_link', { subject: 'Owner' })).status).toBe(200);
    const stranger = await newInternalUser(svc);
    const strangerAdmin = new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': stranger.accessToken });
    expectKnownError(await strangerAdmin.get('/email-templates'), 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN', 401);
  });

  test("one project's customisation is invisible to another", async () => {
    const a = await standardProject();
    const b = await standardProject();
    await a.admin.patch('/email-templates/team_invitation', { subject: 'A only' });
    expect((await b.admin.get('/email-templates/team_invitation')).body.is_default).toBe(true);
    const res = await b.admin.delete('/email-templates/team_invitation');
    expect(res.status).toBe(404);
    expect((await a.admin.get('/email-templates/team_invitation')).body.subject).toBe('A only');
  });
});
