// Every permission-gated part of a team's page, with and without its permission (granted through the server
// API to a member who starts with none).
import { describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { setupBrowserSuite } from '../support/browser';
import { openSettings, settingsProject, signedInUser } from './support';

const { svc } = await setupBrowserSuite();
const project = await settingsProject(svc, { team_creator_default_permissions: [{ id: 'admin' }], team_member_default_permissions: [] });

async function memberWithoutPermissions() {
  const s = await signedInUser(svc, project);
  const team = await project.server.post('/teams', { display_name: 'Gated' });
  expect(team.status).toBe(201);
  expect((await project.server.post(`/team-memberships/${team.body.id}/${s.user.userId}`, {})).status).toBe(201);
  // Someone else has a pending invitation, so the invitations table has a row to revoke.
  expect((await project.server.post('/team-invitations/send-code', { team_id: team.body.id, email: 'pending@example.com', callback_url: `${svc.url}/handler/team-invitation` })).status).toBeLessThan(300);
  return { ...s, teamId: team.body.id as string };
}

async function grant(teamId: string, userId: string, ...ids: string[]) {
  for (const id of ids) expect((await project.server.post(`/team-permissions/${teamId}/${userId}/${id}`, {})).status).toBe(201);
}

const visible = (page: Page, name: string) => page.getByRole('heading', { name, exact: true }).count();

describe('account settings: team permission gating', () => {
  test('everyone: own team user name and Leave Team, nothing else', async () => {
    const m = await memberWithoutPermissions();
    await openSettings(m.page, `team-${m.teamId}`, 'Gated');
    await m.page.getByRole('heading', { name: 'Team user name' }).waitFor();
    await m.page.getByRole('heading', { name: 'Leave Team' }).waitFor();
    for (const h of ['Team profile image', 'Team display name', 'Members', 'Invite member', 'API Keys']) expect(await visible(m.page, h)).toBe(0);
    await m.context.close();
  }, 240_000);

  test('$update_team: team image and display name', async () => {
    const m = await memberWithoutPermissions();
    await openSettings(m.page, `team-${m.teamId}`, 'Gated');
    expect([await visible(m.page, 'Team profile image'), await visible(m.page, 'Team display name')]).toEqual([0, 0]);
    await grant(m.teamId, m.user.userId, '$update_team');
    await m.page.reload();
    await m.page.getByRole('heading', { name: 'Team display name' }).waitFor();
    expect(await visible(m.page, 'Team profile image')).toBe(1);
    await m.context.close();
  }, 240_000);

  test('$read_members: the members table, without the invite form', async () => {
    const m = await memberWithoutPermissions();
    await openSettings(m.page, `team-${m.teamId}`, 'Gated');
    expect(await visible(m.page, 'Members')).toBe(0);
    await grant(m.teamId, m.user.userId, '$read_members');
    await m.page.reload();
    await m.page.getByRole('heading', { name: 'Members' }).waitFor();
    await m.page.getByTestId('team-member-row').first().waitFor();
    expect(await visible(m.page, 'Invite member')).toBe(0);
    await m.context.close();
  }, 240_000);

  test('$invite_members: the invite form and the Members section (the service lists members only with $read_members), no invitations table', async () => {
    const m = await memberWithoutPermissions();
    await openSettings(m.page, `team-${m.teamId}`, 'Gated');
    expect(await visible(m.page, 'Invite member')).toBe(0);
    await grant(m.teamId, m.user.userId, '$invite_members');
    await m.page.reload();
    await m.page.getByRole('heading', { name: 'Invite member' }).waitFor();
    await m.page.getByRole('heading', { name: 'Members' }).waitFor();
    await m.page.getByTestId('members-need-permission').waitFor();
    expect(await m.page.getByRole('columnheader', { name: 'Outstanding invitations' }).count()).toBe(0);
    // Inviting works with this permission alone.
    await m.page.getByRole('textbox', { name: 'Email address to invite' }).fill('new-member@example.com');
    await m.page.getByRole('button', { name: 'Invite User' }).click();
    await m.page.getByText('Invited new-member@example.com').waitFor();
    await m.context.close();
  }, 240_000);

  test('$invite_members + $read_members: the outstanding invitations; revoking one needs $remove_members', async () => {
    const m = await memberWithoutPermissions();
    await grant(m.teamId, m.user.userId, '$invite_members', '$read_members');
    await openSettings(m.page, `team-${m.teamId}`, 'Gated');
    await m.page.getByTestId('invitation-row').filter({ hasText: 'pending@example.com' }).waitFor();
    await m.page.getByRole('columnheader', { name: 'Expires' }).waitFor();
    expect(await m.page.getByRole('button', { name: 'Revoke the invitation of pending@example.com' }).count()).toBe(0);

    await grant(m.teamId, m.user.userId, '$remove_members');
    await m.page.reload();
    await m.page.getByRole('button', { name: 'Revoke the invitation of pending@example.com' }).click();
    await m.page.getByText('No outstanding invitations').waitFor();
    await m.context.close();
  }, 240_000);

  test('$manage_api_keys: team API keys, created and listed', async () => {
    const m = await memberWithoutPermissions();
    await openSettings(m.page, `team-${m.teamId}`, 'Gated');
    expect(await visible(m.page, 'API Keys')).toBe(0);
    await grant(m.teamId, m.user.userId, '$manage_api_keys');
    await m.page.reload();
    await m.page.getByText('API keys grant programmatic access to your team.').waitFor();
    await m.page.getByRole('button', { name: 'Create API Key' }).click();
    await m.page.getByRole('textbox', { name: 'Description' }).fill('Team deploy');
    await m.page.getByRole('button', { name: 'Create', exact: true }).click();
    const secret = await m.page.getByRole('textbox', { name: 'Secret API Key' }).inputValue();
    expect((await project.server.post('/team-api-keys/check', { api_key: secret })).status).toBe(200);
    await m.page.getByRole('checkbox', { name: 'I understand that I will not be able to view this key again.' }).check();
    await m.page.getByRole('button', { name: 'Close' }).click();
    await m.page.getByTestId('api-key-row').filter({ hasText: 'Team deploy' }).waitFor();
    await m.context.close();
  }, 240_000);
});
