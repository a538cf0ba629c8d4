// The client library's owner invitations (issue 26) against the real running service: the owner's admin app invites,
// lists and revokes; the invitee's internal user reads the invitation and accepts it, and then owns the project.
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sharedService, uniqueEmail, DEV_KEYS, type SharedService } from '../../../service/test/support/service.ts';
import { GatehouseClientApp, type CurrentInternalUser } from '../../src/client/index.ts';
import { KnownErrors } from '../../src/known-errors.ts';
import { mailTo } from './service-helpers.ts';

setDefaultTimeout(90_000);
let svc: SharedService;
beforeAll(async () => { svc = await sharedService(); }, 180_000);

const ACCEPT_PAGE = 'http://localhost:8102/console/#/c/this-service/owner-invitation';

async function consoleAccount(): Promise<{ user: CurrentInternalUser; email: string }> {
  const app = new GatehouseClientApp({ baseUrl: svc.url, projectId: 'internal', publishableClientKey: DEV_KEYS.publishableClientKey, tokenStore: 'memory', browser: null });
  const email = uniqueEmail('console');
  const res = await app.signUpWithCredential({ email, password: 'owner-password-1', noRedirect: true, verificationCallbackUrl: 'http://localhost/v' });
  expect(res.status).toBe('ok');
  return { user: (await app.getUser({ or: 'throw' })) as CurrentInternalUser, email };
}

const codeIn = (text: string) => new URLSearchParams(text.match(/https?:\/\/\S+owner-invitation\S*/)![0].split('?')[1]).get('code')!;

describe('owner invitations through the client library', () => {
  test('invite, list, revoke; the invitee reads, accepts and owns the project; a used code is refused', async () => {
    const { user: owner } = await consoleAccount();
    const project = await owner.createProject({ displayName: 'Shared by invitation' });
    const app = project.app;
    const { user: invitee, email } = await consoleAccount();

    await app.inviteProjectOwner({ email: uniqueEmail('revoked'), callbackUrl: ACCEPT_PAGE });
    await app.inviteProjectOwner({ email, callbackUrl: ACCEPT_PAGE });
    const pending = await app.listOwnerInvitations();
    expect(pending.map((i) => i.recipientEmail)).toEqual([expect.stringContaining('revoked'), email]);
    expect(pending[1]!.expiresAt).toBeInstanceOf(Date);
    await pending[0]!.revoke();
    expect((await app.listOwnerInvitations()).map((i) => i.recipientEmail)).toEqual([email]);

    const code = codeIn((await mailTo(svc, email, /invited to own/)).text);
    expect(await invitee.getOwnerInvitation(code)).toEqual({ projectId: project.id, projectDisplayName: 'Shared by invitation', recipientEmail: email });
    const owned = await invitee.acceptOwnerInvitation(code);
    expect(owned.id).toBe(project.id);
    expect((await owned.app.getProject()).displayName).toBe('Shared by invitation');
    expect((await invitee.listOwnedProjects()).map((p) => p.id)).toEqual([project.id]);
    expect((await app.adminReads.owners().get()).map((o) => o.primaryEmail)).toEqual([expect.any(String), email]);
    await expect(invitee.acceptOwnerInvitation(code)).rejects.toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
    expect(await app.listOwnerInvitations()).toEqual([]);
  });
});
