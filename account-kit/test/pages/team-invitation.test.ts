// A team invitation: the inviter invites by email (client API, as a team page would), the invitee opens the mail's
// link in their own browser, signs in from the invitation card, comes back to it and joins.
import { describe, expect, test } from 'bun:test';
import { extractCodeLink, mailTo, newProject, openDemo, screenshot, setupBrowserSuite, signUp } from '../support/browser';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });

describe('team invitation', () => {
  test('invitee signs in from the card, sees the team name, joins; the link is used afterwards', async () => {
    const inviter = await signUp(project);
    const invitee = await signUp(project);
    // The project lets no client create teams (the default): the app's back end made it, with the inviter as creator.
    const team = await project.server.post('/teams', { display_name: 'Lighthouse Crew', creator_user_id: inviter.userId });
    expect(team.status).toBe(201);
    const since = Date.now();
    const sent = await project.client.post('/team-invitations/send-code', {
      email: invitee.email, team_id: team.body.id, callback_url: `${svc.url}/handler/team-invitation`,
    }, { accessToken: inviter.accessToken });
    expect(sent.status).toBe(200);
    const link = extractCodeLink(await mailTo(svc, invitee.email, { since }))!;
    expect(new URL(link).pathname).toBe('/handler/team-invitation');

    const { context, page } = await openDemo(svc, { project });
    await page.goto(link);
    await page.getByRole('heading', { name: 'Team invitation' }).waitFor();
    await page.getByText('Sign in or create an account to join the team.').waitFor();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    expect(new URL(page.url()).searchParams.get('after_auth_return_to')).toStartWith('/handler/team-invitation?code=');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(invitee.email);
    await page.getByLabel('Password', { exact: true }).fill(invitee.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();

    await page.getByRole('heading', { name: 'You are invited to join Lighthouse Crew' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/handler/team-invitation');
    await screenshot(page, 'team-invitation');
    await page.getByRole('button', { name: 'Join' }).click();
    await page.getByRole('heading', { name: 'You have successfully joined Lighthouse Crew' }).waitFor();
    const teams = await project.server.get(`/teams?user_id=${invitee.userId}`);
    expect(teams.body.items.map((t: { display_name: string }) => t.display_name)).toEqual(['Lighthouse Crew']);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Used Team Invitation Link' }).waitFor();
    await context.close();
  });

  test('an invitation sent from the demo for another project, opened in a fresh browser, signs up and joins in that project (issue 25)', async () => {
    const other = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false, client_team_creation_enabled: true } });
    const inviter = await signUp(other);
    const team = await other.client.post('/teams', { display_name: 'Far Crew', creator_user_id: 'me' }, { accessToken: inviter.accessToken });
    expect(team.status).toBe(201);
    // The inviter uses the demo on their project and invites from the team page.
    const { context, page } = await openDemo(svc, { project: other });
    await page.goto('/handler/sign-in');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(inviter.email);
    await page.getByLabel('Password', { exact: true }).fill(inviter.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto(`/handler/account-settings#team-${team.body.id}`);
    const invitee = `far-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const since = Date.now();
    await page.getByRole('textbox', { name: 'Email address to invite' }).fill(invitee);
    await page.getByRole('button', { name: 'Invite User' }).click();
    await page.getByText(`Invited ${invitee}`).waitFor();
    await context.close();
    const link = extractCodeLink(await mailTo(svc, invitee, { since }))!;
    expect(new URL(link).searchParams.get('project_id')).toBe(other.id);

    // A browser that never saw that project: the link alone leads to it; the invitee signs up there and joins.
    const fresh = await openDemo(svc);
    await fresh.page.goto(link);
    await fresh.page.getByRole('heading', { name: 'Team invitation' }).waitFor();
    await fresh.page.getByRole('button', { name: 'Sign in' }).click();
    await fresh.page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    await fresh.page.getByRole('link', { name: 'Sign up' }).click();
    await fresh.page.getByRole('heading', { name: 'Create a new account' }).waitFor();
    await fresh.page.getByRole('textbox', { name: 'Email', exact: true }).fill(invitee);
    await fresh.page.getByLabel('Password', { exact: true }).fill('correct-horse-1');
    await fresh.page.getByLabel('Repeat Password').fill('correct-horse-1');
    await fresh.page.getByRole('button', { name: 'Sign Up' }).click();
    await fresh.page.getByRole('heading', { name: 'You are invited to join Far Crew' }).waitFor();
    await fresh.page.getByRole('button', { name: 'Join' }).click();
    await fresh.page.getByRole('heading', { name: 'You have successfully joined Far Crew' }).waitFor();
    const members = await other.server.get(`/team-member-profiles?team_id=${team.body.id}`);
    expect(members.body.items.map((m: { user: { primary_email: string } }) => m.user.primary_email)).toContain(invitee);
    await fresh.context.close();
  });

  test('a link without a code, or a made-up code for a signed-in person, is an invalid link', async () => {
    const someone = await signUp(project);
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/team-invitation');
    await page.getByRole('heading', { name: 'Invalid Team Invitation Link' }).waitFor();
    await page.goto('/handler/sign-in');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(someone.email);
    await page.getByLabel('Password', { exact: true }).fill(someone.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto('/handler/team-invitation?code=' + 'c'.repeat(45));
    await page.getByRole('heading', { name: 'Invalid Team Invitation Link' }).waitFor();
    await context.close();
  });
});
