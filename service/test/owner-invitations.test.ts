// Invitations to co-own a project (issue 26): an owner mails one (the link leads to the console's accept page, trusted
// by the internal project), lists and revokes pending ones; a signed-in console account reads and accepts one, and the
// project joins its managedProjectIds exactly once. Used, revoked and unknown codes are refused by the catalogue's
// codes; the internal project's record of the mail keeps no live code; the accept is in both audit logs.
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Api, DEV_KEYS, adminApi, expectKnownError, serverApi, sharedService, uniqueEmail, type SharedService } from './support/service';
import { internalClient, newInternalUser, newProject, type TestProject } from './support/projects';

setDefaultTimeout(60_000);
let svc: SharedService;
beforeAll(async () => { svc = await sharedService(); }, 120_000);

const ACCEPT_PAGE = 'http://localhost:8102/console/#/c/this-service/owner-invitation';
const internalAdmin = () => adminApi(svc.url, DEV_KEYS.projectId, DEV_KEYS.superSecretAdminKey);
const internalServer = () => serverApi(svc.url, DEV_KEYS.projectId, DEV_KEYS.secretServerKey);
const signedIn = (accessToken: string) => ({ accessToken });
const ownerIds = async (p: TestProject) => ((await p.admin.get('/internal/owners')).body.items as any[]).map((o) => o.user_id);

/** Invites `email` to own `p` (as its owner, through their admin access token); returns the mailed link and code. */
async function invite(p: TestProject, email = uniqueEmail('invitee')) {
  const res = await p.ownerAdmin.post('/internal/owner-invitations', { email, callback_url: ACCEPT_PAGE });
  expect(res.status).toBe(200);
  const mail = await svc.mailbox.waitForMail((m) => m.to.includes(email));
  const link = mail.text.match(/https?:\/\/\S+/g)!.find((u) => u.includes('owner-invitation'))!;
  const code = new URLSearchParams(new URL(link).hash.split('?')[1]).get('code')!;
  return { id: res.body.id as string, email, mail, link, code };
}

describe('owner invitations', () => {
  test('mailed with the console link; listed; accepted once by a signed-in account, which then owns the project', async () => {
    const p = await newProject(svc, { displayName: 'Co-owned' });
    const sent = await invite(p);
    expect(sent.mail.subject).toBe('You have been invited to own Co-owned');
    expect(sent.mail.text).toContain('has invited you to become an owner of the project Co-owned');
    // The code goes into the accept page's hash route, where the console reads it.
    expect(sent.link.startsWith(`${ACCEPT_PAGE}?code=`)).toBe(true);
    expect(sent.code).toHaveLength(45);
    const pending = await p.admin.get('/internal/owner-invitations');
    expect(pending.body).toEqual({ items: [{ id: sent.id, recipient_email: sent.email, expires_at_millis: expect.any(Number) }], is_paginated: false });
    expect(pending.body.items[0].expires_at_millis - Date.now()).toBeGreaterThan(2.9 * 24 * 3600_000);

    const invitee = await newInternalUser(svc);
    const details = await internalClient(svc).post('/internal/owner-invitations/accept/details', { code: sent.code }, signedIn(invitee.accessToken));
    expect(details.body).toEqual({ project_id: p.id, project_display_name: 'Co-owned', recipient_email: sent.email });
    // Concurrent accepts of one code: one succeeds, the other is told it was used.
    const accepts = await Promise.all([0, 1].map(() =>
      internalClient(svc).post('/internal/owner-invitations/accept', { code: sent.code }, signedIn(invitee.accessToken))));
    const ok = accepts.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.body).toEqual({ project_id: p.id, already_owner: false });
    expectKnownError(accepts.find((r) => r.status !== 200)!, 'VERIFICATION_CODE_ALREADY_USED', 409);

    expect((await internalServer().get(`/users/${invitee.userId}`)).body.server_metadata.managedProjectIds).toEqual([p.id]);
    expect((await ownerIds(p))).toContain(invitee.userId);
    const asOwner = new Api(svc.url, { 'x-stack-project-id': p.id, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': invitee.accessToken });
    expect((await asOwner.get('/projects/current')).body.display_name).toBe('Co-owned');
    expect((await p.admin.get('/internal/owner-invitations')).body.items).toEqual([]);

    // The audit logs of the project and of the internal project say who became an owner.
    for (const log of [p.admin, internalAdmin()]) {
      const entries = (await log.get('/internal/audit-log?limit=200')).body.items as any[];
      const entry = entries.find((e) => e.event === 'project.ownership_changed' && e.target === invitee.userId);
      expect(entry).toMatchObject({ actor: { kind: 'client', user_id: invitee.userId }, details: { added_project_id: p.id, via: 'invitation' } });
    }
  });

  test('an owner accepting again, and two invitations to the same account, add the project once', async () => {
    const p = await newProject(svc);
    const invitee = await newInternalUser(svc);
    const [a, b] = [await invite(p), await invite(p)];
    const results = await Promise.all([a, b].map((i) =>
      internalClient(svc).post('/internal/owner-invitations/accept', { code: i.code }, signedIn(invitee.accessToken))));
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results.map((r) => r.body.already_owner).sort()).toEqual([false, true]);
    expect((await internalServer().get(`/users/${invitee.userId}`)).body.server_metadata.managedProjectIds).toEqual([p.id]);
  });

  test('revoked, unknown and used codes, callbacks the console does not trust, and the wrong callers are refused', async () => {
    const p = await newProject(svc);
    const other = await newProject(svc);
    const invitee = await newInternalUser(svc);
    const accept = (code: string, token = invitee.accessToken) =>
      internalClient(svc).post('/internal/owner-invitations/accept', { code }, signedIn(token));
    const revoked = await invite(p);
    expectKnownError(await other.admin.delete(`/internal/owner-invitations/${revoked.id}`), 'VERIFICATION_CODE_NOT_FOUND', 404);
    expect((await p.admin.delete(`/internal/owner-invitations/${revoked.id}`)).status).toBe(200);
    expectKnownError(await p.admin.delete(`/internal/owner-invitations/${revoked.id}`), 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(await accept(revoked.code), 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(await accept('x'.repeat(45)), 'VERIFICATION_CODE_NOT_FOUND', 404);

    const used = await invite(p);
    expect((await accept(used.code)).status).toBe(200);
    expectKnownError(await p.admin.delete(`/internal/owner-invitations/${used.id}`), 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(await accept(used.code), 'VERIFICATION_CODE_ALREADY_USED', 409);

    expectKnownError(await p.admin.post('/internal/owner-invitations', { email: uniqueEmail(), callback_url: 'https://evil.example/console/' }), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    expectKnownError(await p.admin.post('/internal/owner-invitations', { email: 'not-an-email', callback_url: ACCEPT_PAGE }), 'SCHEMA_ERROR', 400);
    for (const api of [p.client, p.server]) expectKnownError(await api.get('/internal/owner-invitations'), 'INSUFFICIENT_ACCESS_TYPE', 401);

    const pending = await invite(p);
    // Not signed in; signed in to another project; an anonymous account.
    expectKnownError(await internalClient(svc).post('/internal/owner-invitations/accept', { code: pending.code }), 'USER_AUTHENTICATION_REQUIRED', 401);
    expectKnownError(await p.client.post('/internal/owner-invitations/accept', { code: pending.code }), 'EXPECTED_INTERNAL_PROJECT', 401);
    const anonymous = await internalClient(svc).post('/auth/anonymous/sign-up', {});
    expect(anonymous.status).toBe(200);
    expectKnownError(await accept(pending.code, anonymous.body.access_token), 'OWNER_ACCOUNT_REQUIRED', 403);
    expect((await p.admin.get('/internal/owner-invitations')).body.items.map((i: any) => i.id)).toEqual([pending.id]);
  });

  test("the internal project's record of the invitation mail has the link replaced by a placeholder", async () => {
    const p = await newProject(svc, { displayName: 'Recorded' });
    const sent = await invite(p);
    let item: any;
    for (const end = Date.now() + 30_000; !item && Date.now() < end; await Bun.sleep(200)) {
      item = ((await internalAdmin().get('/internal/emails')).body.items as any[]).find((e) => e.to.includes(sent.email));
    }
    expect(item).toBeDefined();
    const res = await internalAdmin().get(`/internal/emails/${item.id}`);
    expect(res.status).toBe(200);
    expect(res.body.subject).toBe('You have been invited to own Recorded');
    expect(res.body.text).toContain('[link]');
    expect(res.body.html).toContain('[link]');
    expect(res.text).not.toContain(sent.code);
    expect((await p.admin.get(`/internal/emails/${item.id}`)).status).toBe(404);
  });
});
