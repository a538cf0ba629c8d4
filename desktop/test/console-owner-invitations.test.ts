// Issue 26, co-owners: an owner invites someone by email from the Owners screen; the invitee follows the mailed link,
// signs up in the console, comes back to the accept page, accepts and opens the project; the first owner sees both
// owners, removes the second, and cannot remove the last; the used link is refused with the catalogue's text.
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import {
  checkLooks, checkLooksOnPhone, createProject, notification, openConsole, openScreen, setupConsoleSuite, signUpOwner, uniqueEmail,
} from './support/console';

const { svc } = await setupConsoleSuite();
const contexts: BrowserContext[] = [];
afterAll(async () => { for (const c of contexts) await c.close(); });

async function browserOf(width: number): Promise<Page> {
  const { context, page } = await openConsole(svc, { width });
  contexts.push(context);
  return page;
}

const PROJECT = 'Shared by mail';
const ownerRows = (page: Page) => page.getByTestId('project-owner');

describe('owner invitations', () => {
  let owner: Page;
  let ownerEmail: string;
  let projectId: string;
  let invitee: Page;
  const inviteeEmail = uniqueEmail('co-owner');
  let link: string;

  test('the owner invites by email; the invitation is pending, and the mail links to the console', async () => {
    owner = await browserOf(1280);
    ownerEmail = await signUpOwner(owner);
    projectId = await createProject(owner, PROJECT);
    await openScreen(owner, 'Owners');
    await owner.getByText('No pending invitations.').waitFor();
    await owner.getByRole('button', { name: 'Invite an owner' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Invite an owner' });
    // A wrong address is said under the field, and nothing is sent.
    await dialog.getByLabel('Email').fill('not an address');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.getByText('Enter a valid email address', { exact: false }).waitFor();
    await dialog.getByLabel('Email').fill(inviteeEmail);
    const since = Date.now();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await notification(owner, `Invitation sent to ${inviteeEmail}`);
    const row = owner.getByTestId('owner-invitation');
    await row.waitFor();
    expect(await row.innerText()).toContain(inviteeEmail);
    // A toast still shown (the project's creation) is closed as a person who has read it does, rather than waited out
    // (4 s): the looks below are of the screen without it.
    for (const toast of await owner.locator('.mantine-Notification-root').all()) {
      await toast.locator('.mantine-Notification-closeButton').click({ timeout: 5_000 }).catch(() => { /* it closed itself */ });
    }
    await owner.mouse.move(0, 0);
    await owner.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => {});
    await checkLooks(owner, 'owners-invitation-pending', (p) => p.getByTestId('owner-invitation').waitFor());
    await checkLooksOnPhone(owner, 'owners-invitation-pending', (p) => p.getByTestId('owner-invitation').waitFor());

    const mail = await svc.sharedMailbox.waitForMail((m) => m.to.includes(inviteeEmail) && m.receivedAt >= since, 30_000);
    expect(mail.subject).toBe(`You have been invited to own ${PROJECT}`);
    expect(mail.text).toContain(`${ownerEmail} has invited you`);
    link = mail.text.match(/https?:\/\/\S+/g)!.find((u) => u.includes('owner-invitation'))!;
    const url = new URL(link);
    expect(url.origin).toBe(svc.url);
    expect(url.pathname).toBe('/console/');
    expect(url.hash).toMatch(/^#\/c\/this-service\/owner-invitation\?code=\w{45}$/);
  });

  test('the invitee follows the link, signs up, comes back to the accept page, accepts and opens the project', async () => {
    invitee = await browserOf(1280);
    await invitee.goto(link);
    // Not signed in: the console's sign-in comes first; the invitee has no account yet and signs up.
    await invitee.getByRole('link', { name: 'Sign up' }).click();
    await invitee.getByRole('heading', { name: 'Create a new account' }).waitFor();
    const passwordTab = invitee.getByRole('tab', { name: 'Password' });
    if (await passwordTab.count()) await passwordTab.click();
    await invitee.getByRole('textbox', { name: 'Email' }).fill(inviteeEmail);
    await invitee.getByLabel('Password', { exact: true }).fill('owner-password-2');
    await invitee.getByLabel('Repeat Password').fill('owner-password-2');
    await invitee.getByRole('button', { name: 'Sign Up', exact: true }).click();

    const heading = invitee.getByRole('heading', { level: 1, name: `Become an owner of ${PROJECT}` });
    await heading.waitFor();
    expect(new URL(invitee.url()).hash).toBe(new URL(link).hash);
    await invitee.getByText(`The invitation was sent to ${inviteeEmail}. You are signed in as ${inviteeEmail}.`).waitFor();
    await checkLooks(invitee, 'owner-invitation-accept', (p) => p.getByRole('button', { name: 'Accept' }).waitFor());
    await checkLooksOnPhone(invitee, 'owner-invitation-accept', (p) => p.getByRole('button', { name: 'Accept' }).waitFor());

    await invitee.getByRole('button', { name: 'Accept' }).click();
    await notification(invitee, `You now own ${PROJECT}`);
    await invitee.getByRole('heading', { level: 1, name: PROJECT }).waitFor();
    expect(new URL(invitee.url()).hash).toBe(`#/c/this-service/p/${encodeURIComponent(projectId)}/overview`);

    // The project is in the invitee's list, and opens from there.
    await invitee.goto('/console/#/c/this-service');
    await invitee.getByRole('heading', { name: 'Projects' }).waitFor();
    const row = invitee.getByTestId('project-row').filter({ hasText: PROJECT });
    await row.waitFor();
    await row.getByRole('button', { name: `Open ${PROJECT}` }).click();
    await invitee.getByRole('heading', { level: 1, name: PROJECT }).waitFor();
    await openScreen(invitee, 'Owners');
    await ownerRows(invitee).nth(1).waitFor();
  });

  test('the owner sees both owners and no pending invitation; removes the co-owner; the last owner stays', async () => {
    await owner.reload();
    await owner.getByRole('heading', { level: 1, name: 'Owners' }).waitFor();
    await ownerRows(owner).nth(1).waitFor();
    expect(await ownerRows(owner).allTextContents()).toEqual([expect.stringContaining(ownerEmail), expect.stringContaining(inviteeEmail)]);
    await owner.getByText('No pending invitations.').waitFor();

    await owner.getByRole('button', { name: `Remove ${inviteeEmail}` }).click();
    await owner.getByRole('dialog', { name: `Remove ${inviteeEmail} as an owner?` }).getByRole('button', { name: 'Remove' }).click();
    await notification(owner, `${inviteeEmail} is no longer an owner`);
    await owner.waitForFunction(() => document.querySelectorAll('[data-testid="project-owner"]').length === 1);
    expect(await owner.getByRole('button', { name: `Remove ${ownerEmail}` }).isDisabled()).toBe(true);
    await owner.getByTestId('last-owner-note').waitFor();
  });

  test('the used link is refused with the catalogue\'s text; a revoked invitation\'s link too', async () => {
    await invitee.goto(link);
    const refusal = invitee.getByTestId('owner-invitation-error');
    await refusal.waitFor();
    expect(await refusal.innerText()).toBe('This link has been used already. Ask for a new one.VERIFICATION_CODE_ALREADY_USED');
    await checkLooks(invitee, 'owner-invitation-used', (p) => p.getByTestId('owner-invitation-error').waitFor());

    // A second invitation, revoked by the owner: its link stops working.
    const again = uniqueEmail('revoked-co-owner');
    await owner.getByRole('button', { name: 'Invite an owner' }).click();
    await owner.getByRole('dialog', { name: 'Invite an owner' }).getByLabel('Email').fill(again);
    const since = Date.now();
    await owner.getByRole('dialog', { name: 'Invite an owner' }).getByRole('button', { name: 'Send invitation' }).click();
    await notification(owner, `Invitation sent to ${again}`);
    await owner.getByRole('button', { name: `Revoke the invitation of ${again}` }).click();
    await owner.getByRole('dialog', { name: `Revoke the invitation of ${again}?` }).getByRole('button', { name: 'Revoke' }).click();
    await notification(owner, `Invitation of ${again} revoked`);
    await owner.getByText('No pending invitations.').waitFor();
    const mail = await svc.sharedMailbox.waitForMail((m) => m.to.includes(again) && m.receivedAt >= since, 30_000);
    await invitee.goto(mail.text.match(/https?:\/\/\S+/g)!.find((u) => u.includes('owner-invitation'))!);
    await invitee.getByText('This link is not valid (any more): it may have been revoked. Ask for a new one.').waitFor();
  });
});
