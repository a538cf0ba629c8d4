// Teams with two people in two browser contexts: create a team, invite the second person by email, they accept
// from the mail, both see them in the members table; a permission granted through the server API shows its part;
// the second person leaves. Team creation switched off: "Team creation is not enabled".
import { describe, expect, test } from 'bun:test';
import { extractCodeLink, mailTo, screenshot, setupBrowserSuite } from '../support/browser';
import { openSettings, settingsProject, signedInUser } from './support';

const { svc } = await setupBrowserSuite();
const project = await settingsProject(svc, {
  team_creator_default_permissions: [{ id: 'admin' }],
  team_member_default_permissions: [{ id: 'member' }],
});

describe('account settings: teams', () => {
  test('create, invite by email, accept from the mail, members, a granted permission, leave', async () => {
    const owner = await signedInUser(svc, project);
    const guest = await signedInUser(svc, project);

    // Create a team.
    await openSettings(owner.page, 'team-creation', 'Create a team');
    await owner.page.getByText('Enter a display name for your new team').waitFor();
    await owner.page.getByRole('button', { name: 'Create', exact: true }).click();
    await owner.page.getByText('Please enter a team name').waitFor();
    await owner.page.getByRole('textbox', { name: 'Team name' }).fill('Rocket Crew');
    await owner.page.getByRole('button', { name: 'Create', exact: true }).click();
    await owner.page.waitForURL((u) => u.hash.startsWith('#team-') && u.hash !== '#team-creation');
    const teamId = new URL(owner.page.url()).hash.slice('#team-'.length);
    await owner.page.getByRole('heading', { name: 'Rocket Crew', level: 2 }).waitFor();
    await owner.page.getByRole('link', { name: 'Rocket Crew' }).waitFor();

    // Invite the guest by email.
    const since = Date.now();
    await owner.page.getByRole('textbox', { name: 'Email address to invite' }).fill(guest.user.email);
    await owner.page.getByRole('button', { name: 'Invite User' }).click();
    await owner.page.getByText(`Invited ${guest.user.email}`).waitFor();
    await owner.page.getByTestId('invitation-row').filter({ hasText: guest.user.email }).waitFor();
    await screenshot(owner.page, 'settings-team-owner');

    // The guest accepts from the mail.
    const mail = await mailTo(svc, guest.user.email, { since });
    await guest.page.goto(extractCodeLink(mail)!);
    await guest.page.getByRole('button', { name: 'Join' }).click();
    await guest.page.getByText('You have successfully joined Rocket Crew').waitFor();

    // Both see two members; the guest's own name in the team appears in the table once set.
    await openSettings(guest.page, `team-${teamId}`, 'Rocket Crew');
    await guest.page.getByRole('button', { name: 'Edit Team user name' }).click();
    await guest.page.getByRole('textbox', { name: 'Team user name' }).fill('Guest Star');
    await guest.page.getByRole('button', { name: 'Save' }).click();
    await guest.page.getByTestId('team-member-row').filter({ hasText: 'Guest Star' }).waitFor();
    expect(await guest.page.getByTestId('team-member-row').count()).toBe(2);
    await owner.page.reload();
    await owner.page.getByTestId('team-member-row').filter({ hasText: 'Guest Star' }).waitFor();
    expect(await owner.page.getByTestId('invitation-row').count()).toBe(0);

    // A member does not rename the team until granted $update_team.
    expect(await guest.page.getByRole('heading', { name: 'Team display name' }).count()).toBe(0);
    const grant = await project.server.post(`/team-permissions/${teamId}/${guest.user.userId}/$update_team`, {});
    expect(grant.status).toBe(201);
    await guest.page.reload();
    await guest.page.getByRole('heading', { name: 'Team display name' }).waitFor();
    await guest.page.getByRole('button', { name: 'Edit Team display name' }).click();
    await guest.page.getByRole('textbox', { name: 'Team display name' }).fill('Rocket Crew II');
    await guest.page.getByRole('button', { name: 'Save' }).click();
    await guest.page.getByRole('link', { name: 'Rocket Crew II' }).waitFor();

    // The guest leaves.
    await guest.page.getByRole('button', { name: 'Leave team' }).click();
    await guest.page.getByText('Are you sure you want to leave the team?').waitFor();
    await guest.page.getByRole('button', { name: 'Leave', exact: true }).click();
    await guest.page.getByRole('link', { name: 'Rocket Crew II' }).waitFor({ state: 'detached' });
    await owner.page.reload();
    await owner.page.getByTestId('team-member-row').first().waitFor();
    expect(await owner.page.getByTestId('team-member-row').count()).toBe(1);
    await owner.context.close();
    await guest.context.close();
  }, 240_000);

  test('team creation switched off: the item is gone and its page says so', async () => {
    const off = await settingsProject(svc, { client_team_creation_enabled: false });
    const { context, page } = await signedInUser(svc, off);
    await openSettings(page, 'profile', 'My Profile');
    expect(await page.getByRole('link', { name: 'Create a team' }).count()).toBe(0);
    // No team and no creation: no Teams divider either.
    expect(await page.getByText('Teams', { exact: true }).count()).toBe(0);
    await context.close();
  }, 240_000);
});
