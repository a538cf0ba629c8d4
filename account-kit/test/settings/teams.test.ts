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

/** An access token of the person (a second session through the API, beside their browser's). */
async function signUpAndToken(p: typeof project, user: { email: string; password: string }) {
  const res = await p.client.post('/auth/password/sign-in', { email: user.email, password: user.password });
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

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

  test('members: name or else primary email, (you), permissions read-only, Remove with a confirmation; the invite field clears and the invitation shows at once (issue 25)', async () => {
    const roster = await settingsProject(svc, {
      team_creator_default_permissions: [{ id: '$read_members' }, { id: '$invite_members' }, { id: '$remove_members' }, { id: '$update_team' }],
      team_member_default_permissions: [{ id: '$read_members' }],
    });
    const owner = await signedInUser(svc, roster);
    const created = await roster.client.post('/teams', { display_name: 'Roster Team', creator_user_id: 'me' }, { accessToken: (await signUpAndToken(roster, owner.user)) });
    expect(created.status).toBe(201);
    const teamId = created.body.id as string;
    const named = await roster.client.post('/auth/password/sign-up', { email: `named-${crypto.randomUUID().slice(0, 8)}@example.com`, password: 'correct-horse-1' });
    const unnamed = await roster.client.post('/auth/password/sign-up', { email: `unnamed-${crypto.randomUUID().slice(0, 8)}@example.com`, password: 'correct-horse-1' });
    for (const u of [named, unnamed]) expect((await roster.server.post(`/team-memberships/${teamId}/${u.body.user_id}`, {})).status).toBe(201);
    await roster.server.patch(`/users/${named.body.user_id}`, { display_name: 'Named Member' });
    const unnamedEmail = (await roster.server.get(`/users/${unnamed.body.user_id}`)).body.primary_email as string;

    await openSettings(owner.page, `team-${teamId}`, 'Roster Team');
    const rows = owner.page.getByTestId('team-member-row');
    await rows.nth(2).waitFor();
    // No "-": the member without a name shows their primary email; the viewer is marked "(you)".
    await rows.filter({ hasText: unnamedEmail }).waitFor();
    await rows.filter({ hasText: 'Named Member' }).waitFor();
    const me = rows.filter({ hasText: '(you)' });
    expect(await me.count()).toBe(1);
    expect(await me.textContent()).toContain(owner.user.email);
    expect(await rows.filter({ hasText: /^-$/ }).count()).toBe(0);
    // Each member's team permissions, read-only.
    expect(await me.textContent()).toContain('$remove_members');
    expect(await rows.filter({ hasText: 'Named Member' }).textContent()).toContain('$read_members');
    // Remove: asks first; Cancel keeps the member, Remove removes them (and the service agrees).
    expect(await me.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    await owner.page.getByRole('button', { name: `Remove ${unnamedEmail} from the team` }).click();
    const dialog = owner.page.getByRole('dialog', { name: 'Remove member' });
    await dialog.getByText(`Remove ${unnamedEmail} from Roster Team?`, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await rows.count()).toBe(3);
    await owner.page.getByRole('button', { name: `Remove ${unnamedEmail} from the team` }).click();
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await rows.filter({ hasText: unnamedEmail }).waitFor({ state: 'detached' });
    const left = await roster.server.get(`/team-member-profiles?team_id=${teamId}`);
    expect(left.body.items.map((i: { user_id: string }) => i.user_id)).not.toContain(unnamed.body.user_id);

    // Invite: the field is empty again, the invitation is in the table at once with its Revoke button.
    const invitee = `invitee-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const field = owner.page.getByRole('textbox', { name: 'Email address to invite' });
    await field.fill(invitee);
    await owner.page.getByRole('button', { name: 'Invite User' }).click();
    await owner.page.getByText(`Invited ${invitee}`).waitFor();
    expect(await field.inputValue()).toBe('');
    await owner.page.getByTestId('invitation-row').filter({ hasText: invitee }).getByRole('button', { name: `Revoke the invitation of ${invitee}` }).waitFor();
    await screenshot(owner.page, 'settings-team-roster');
    await owner.context.close();
  }, 240_000);

  test('names have one limit for the service and the screens; a long team name is cut with its whole text in a tooltip (issue 25)', async () => {
    const { context, page, user } = await signedInUser(svc, project);
    const token = await signUpAndToken(project, user);
    const tooLong = 'N'.repeat(101);
    const refused = await project.client.post('/teams', { display_name: tooLong, creator_user_id: 'me' }, { accessToken: token });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('SCHEMA_ERROR');
    expect((await project.client.patch('/users/me', { display_name: tooLong }, { accessToken: token })).body.code).toBe('SCHEMA_ERROR');
    // The longest name the service takes fits the page: the sidebar cuts it and tells it whole on hover.
    const longest = `Team ${'Long'.repeat(30)}`.slice(0, 100);
    const made = await project.client.post('/teams', { display_name: longest, creator_user_id: 'me' }, { accessToken: token });
    expect(made.status).toBe(201);
    await openSettings(page, `team-${made.body.id}`, longest);
    const link = page.getByRole('link', { name: longest });
    const box = (await link.boundingBox())!;
    expect(box.width).toBeLessThan(400);
    await link.getByText(longest).hover();
    await page.getByRole('tooltip').filter({ hasText: longest }).waitFor();
    // The longest person's name neither pushes the header apart nor runs over the app's title.
    expect((await project.client.patch('/users/me', { display_name: longest }, { accessToken: token })).status).toBe(200);
    await page.goto('/');
    const title = (await page.getByRole('link', { name: 'Gatehouse demo' }).boundingBox())!;
    const account = (await page.getByRole('button', { name: /Open account menu/ }).boundingBox())!;
    expect(account.width).toBeLessThan(300);
    expect(title.x + title.width).toBeLessThan(account.x);
    // The create form refuses a name over the limit before asking the service.
    await openSettings(page, 'team-creation', 'Create a team');
    await page.getByRole('textbox', { name: 'Team name' }).fill(tooLong);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('A name has at most 100 characters').waitFor();
    await context.close();
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
