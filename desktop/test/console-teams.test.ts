// An owner runs a project's teams from the console: creates one, adds existing users, grants and revokes
// permissions (checked as the member, signed in with the client library), edits the metadata tiers (invalid JSON
// refused before sending), invites by email (the mail arrives) and revokes the invitation, deletes the team.
// The command palette, opened from the keyboard, jumps to a screen and to a user found by email.
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { GatehouseClientApp } from '@gatehouse/shared/client';
import { adminApi, serverApi } from '../../service/test/support/service';
import {
  checkLooksAtBothWidths, createAllKeys, createProject, notification, openConsole, openScreen, setupConsoleSuite, signUpOwner, uniqueEmail, type ShownKeys,
} from './support/console';

const { svc } = await setupConsoleSuite();
let context: BrowserContext;
let page: Page;
let projectId: string;
let keys: ShownKeys;
let teamId: string;
const PASSWORD = 'member-password-1';
const admin = () => adminApi(svc.url, projectId, keys.superSecretAdminKey);
const server = () => serverApi(svc.url, projectId, keys.secretServerKey);
const members: { id: string; email: string }[] = [];

afterAll(async () => context?.close());

async function createMember(prefix: string) {
  const email = uniqueEmail(prefix);
  const res = await server().post('/users', { primary_email: email, primary_email_auth_enabled: true, password: PASSWORD, display_name: `${prefix} person` });
  expect(res.status).toBe(201);
  const user = { id: res.body.id as string, email };
  members.push(user);
  return user;
}

/** The member's permissions in the team as the member sees them: signed in with the client library. */
async function permissionsAsMember(email: string): Promise<string[]> {
  const app = new GatehouseClientApp({ baseUrl: svc.url, projectId, publishableClientKey: keys.publishableClientKey, tokenStore: 'memory', browser: null });
  const signIn = await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
  expect(signIn.status).toBe('ok');
  const user = await app.getUser({ or: 'throw' });
  const team = await user.getTeam(teamId);
  if (!team) throw new Error('the member does not see the team');
  return (await user.listPermissions(team)).map((p) => p.id).sort();
}

describe('teams', () => {
  test('setup: an owner with a project, its keys, and a permission that contains another', async () => {
    ({ context, page } = await openConsole(svc, { width: 1280 }));
    await signUpOwner(page);
    projectId = await createProject(page, 'Guilds');
    keys = await createAllKeys(page, 'Tests');
    for (const def of [{ id: 'docs_reader' }, { id: 'docs_editor', contained_permission_ids: ['docs_reader', '$read_members'] }]) {
      expect((await admin().post('/team-permission-definitions', def)).status).toBe(201);
    }
  });

  test('empty list, create a team (form checked before sending), search the list', async () => {
    await openScreen(page, 'Teams');
    await page.getByTestId('empty-state').filter({ hasText: 'No teams yet.' }).waitFor();
    await checkLooksAtBothWidths(page, 'teams-empty', (p) => p.getByTestId('empty-state').waitFor(), 1280);
    await openScreen(page, 'Teams');

    await page.getByRole('button', { name: 'Create team' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a team' });
    await dialog.getByLabel('Profile image URL').fill('not an image');
    await dialog.getByRole('button', { name: 'Create team' }).click();
    await dialog.getByText('Required').waitFor();
    await dialog.getByText('Profile image URL contains spaces').waitFor();
    expect((await server().get('/teams')).body.items).toEqual([]);
    await dialog.getByLabel('Display name').fill('Writers');
    await dialog.getByLabel('Profile image URL').fill('');
    await dialog.getByRole('button', { name: 'Create team' }).click();
    await notification(page, 'Team "Writers" created');
    // The console opens the new team's page.
    await page.getByRole('heading', { level: 1, name: 'Writers' }).waitFor();
    teamId = decodeURIComponent(/\/teams\/([^/]+)$/.exec(new URL(page.url()).hash)![1]!);
    expect((await server().get(`/teams/${teamId}`)).body).toMatchObject({ id: teamId, display_name: 'Writers', profile_image_url: null });

    expect((await server().post('/teams', { display_name: 'Readers' })).status).toBe(201);
    await page.getByRole('link', { name: 'All teams' }).click();
    await page.getByTestId('team-row').nth(1).waitFor();
    expect(await page.getByTestId('team-row').allTextContents()).toEqual([expect.stringContaining('Readers'), expect.stringContaining('Writers')]);
    await page.getByLabel('Search teams').fill('writ');
    await page.getByTestId('team-row').filter({ hasText: 'Readers' }).waitFor({ state: 'detached' });
    expect(await page.getByTestId('team-row').count()).toBe(1);
    await page.getByLabel('Search teams').fill('nobody');
    await page.getByText('No team matches "nobody".').waitFor();
    await page.getByLabel('Search teams').fill('');
    await checkLooksAtBothWidths(page, 'teams-list', (p) => p.getByTestId('team-row').nth(1).waitFor(), 1280);
    await page.getByRole('link', { name: 'Writers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Writers' }).waitFor();
  });

  test('profile: name and image saved', async () => {
    const image = 'https://images.example.com/writers.png';
    await page.getByLabel('Display name').fill('Writers Guild');
    await page.getByLabel('Profile image URL').fill(image);
    await page.getByRole('button', { name: 'Save' }).first().click();
    await notification(page, 'Team saved');
    await page.getByRole('heading', { level: 1, name: 'Writers Guild' }).waitFor();
    expect((await server().get(`/teams/${teamId}`)).body).toMatchObject({ display_name: 'Writers Guild', profile_image_url: image });
  });

  test('members: add existing users found by email, remove one behind a confirmation', async () => {
    const ann = await createMember('ann');
    const bob = await createMember('bob');
    await page.getByTestId('empty-state').filter({ hasText: 'No members yet.' }).waitFor();
    for (const user of [ann, bob]) {
      await page.getByRole('button', { name: 'Add member' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a member to "Writers Guild"' });
      await dialog.getByLabel('User', { exact: true }).fill(user.email.slice(0, 10));
      await page.getByRole('option', { name: user.email }).click();
      await dialog.getByRole('button', { name: 'Add member' }).click();
      await notification(page, `${user.email} added`);
      await page.getByTestId(`member-${user.email}`).waitFor();
    }
    const listed = (await server().get(`/team-member-profiles?team_id=${teamId}`)).body.items.map((m: any) => m.user_id).sort();
    expect(listed).toEqual([ann.id, bob.id].sort());

    await page.getByRole('button', { name: `Remove ${bob.email} from the team` }).click();
    const confirm = page.getByRole('dialog', { name: `Remove ${bob.email}?` });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await notification(page, `${bob.email} removed`);
    await page.getByTestId(`member-${bob.email}`).waitFor({ state: 'detached' });
    expect((await server().get(`/team-member-profiles?team_id=${teamId}`)).body.items.map((m: any) => m.user_id)).toEqual([ann.id]);
  });

  test('permissions: grant one containing others (shown as contained), revoke it; the member sees each change', async () => {
    const ann = members[0]!;
    const before = await permissionsAsMember(ann.email);
    expect(before).not.toContain('docs_editor');
    await page.getByRole('button', { name: `Permissions of ${ann.email}` }).click();
    const dialog = page.getByRole('dialog', { name: `Permissions of ${ann.email}` });
    await dialog.getByLabel('Grant a permission', { exact: true }).click();
    await page.getByRole('option', { name: 'docs_editor', exact: true }).click();
    await dialog.getByRole('button', { name: 'Grant', exact: true }).click();
    await notification(page, 'docs_editor granted');
    await dialog.getByTestId('member-permission-docs_editor').filter({ hasText: 'Granted' }).waitFor();
    const reader = dialog.getByTestId('member-permission-docs_reader');
    await reader.waitFor();
    expect(await reader.textContent()).toContain('Contained');
    expect(await reader.textContent()).toContain('through docs_editor');
    expect(await reader.getByRole('button').count()).toBe(0);

    const granted = await permissionsAsMember(ann.email);
    expect(granted).toEqual(expect.arrayContaining(['docs_editor', 'docs_reader', '$read_members']));
    await checkLooksAtBothWidths(page, 'team-member-permissions', (p) => p.getByRole('dialog').getByTestId('member-permission-docs_reader').waitFor(), 1280);

    await dialog.getByRole('button', { name: 'Revoke docs_editor' }).click();
    await notification(page, 'docs_editor revoked');
    await dialog.getByTestId('member-permission-docs_editor').waitFor({ state: 'detached' });
    expect(await dialog.getByTestId('member-permission-docs_reader').count()).toBe(0);
    expect(await permissionsAsMember(ann.email)).toEqual(before);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  test('metadata: invalid JSON is refused before sending; valid JSON is saved in each tier', async () => {
    const client = page.getByLabel('Client metadata', { exact: true });
    await client.fill('{"plan": pro}');
    await page.getByLabel('Server metadata', { exact: true }).fill('{"seats": 3}');
    await page.getByRole('button', { name: 'Save' }).last().click();
    await page.getByText(/^Not valid JSON\./).waitFor();
    // Nothing was written: not even the valid tier.
    expect((await server().get(`/teams/${teamId}`)).body).toMatchObject({ client_metadata: null, server_metadata: null });

    await client.fill('{"plan": "pro"}');
    await page.getByLabel('Client read-only metadata', { exact: true }).fill('["a", 1]');
    await page.getByRole('button', { name: 'Save' }).last().click();
    await notification(page, 'Metadata saved');
    expect((await server().get(`/teams/${teamId}`)).body).toMatchObject({
      client_metadata: { plan: 'pro' }, client_read_only_metadata: ['a', 1], server_metadata: { seats: 3 },
    });
  });

  test('invitations: sent (the mail arrives with the team\'s link), listed, revoked', async () => {
    const email = uniqueEmail('invitee');
    await page.getByTestId('empty-state').filter({ hasText: 'No pending invitations.' }).waitFor();
    await page.getByRole('button', { name: 'Invite by email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite someone to "Writers Guild"' });
    await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill('not-an-email');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.getByText('Enter a valid email address').waitFor();
    expect(await dialog.getByLabel('Link in the email leads to').inputValue()).toBe(`${svc.url}/handler/team-invitation`);
    await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await notification(page, `Invitation sent to ${email}`);
    const mail = await svc.sharedMailbox.waitForMail((m) => m.to.includes(email), 30_000);
    expect(mail.text).toContain('Writers Guild');
    expect(mail.text).toContain(`${svc.url}/handler/team-invitation?code=`);
    const row = page.getByTestId(`invitation-${email}`);
    await row.waitFor();
    await checkLooksAtBothWidths(page, 'team-page', (p) => p.getByTestId(`invitation-${email}`).waitFor(), 1280);

    await page.getByRole('button', { name: `Revoke the invitation to ${email}` }).click();
    await page.getByRole('dialog', { name: `Revoke the invitation to ${email}` }).getByRole('button', { name: 'Revoke' }).click();
    await notification(page, 'Invitation revoked');
    await row.waitFor({ state: 'detached' });
    expect((await server().get(`/team-invitations?team_id=${teamId}`)).body.items).toEqual([]);
  });

  test('delete: the confirmation asks for the team name; afterwards the team is gone', async () => {
    await page.getByRole('button', { name: 'Delete team' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete team "Writers Guild"?' });
    const confirm = dialog.getByRole('button', { name: 'Delete team' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Team name').fill('Writers');
    await dialog.getByText('Type the team name exactly').waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Team name').fill('Writers Guild');
    await confirm.click();
    await notification(page, 'Team "Writers Guild" deleted');
    await page.getByRole('heading', { level: 1, name: 'Teams' }).waitFor();
    expect(await page.getByTestId('team-row').allTextContents()).toEqual([expect.stringContaining('Readers')]);
    const gone = await server().get(`/teams/${teamId}`);
    expect(gone.body.code).toBe('TEAM_NOT_FOUND');
    // Its address now says so instead of failing.
    await page.goto(`/console/#/c/this-service/p/${projectId}/teams/${teamId}`);
    await page.getByText('This team does not exist (any more).').waitFor();
  });
});

describe('command palette', () => {
  /**
   * Ctrl+K, then what a person waits for before typing: the cursor in the search box. The box is shown before the
   * dialog's opening transition moves the focus into it; on a busy machine the letters typed in between went to the
   * page (the palette stayed unfiltered, and Enter had nothing selected).
   */
  async function openPalette() {
    await page.keyboard.press('Control+K');
    const search = page.getByRole('textbox', { name: 'Jump to a screen, a project, a team or a user' });
    await search.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Jump to a screen, a project, a team or a user');
    return search;
  }

  test('Ctrl+K, a few letters and Enter open a screen', async () => {
    // The deleted team's page has no heading: back to the list first.
    await page.getByRole('link', { name: 'All teams' }).click();
    await page.getByRole('heading', { level: 1, name: 'Teams' }).click();
    const search = await openPalette();
    await page.keyboard.type('sent');
    expect(await search.inputValue()).toBe('sent');
    // Filtered: the screens that do not match are gone.
    await page.getByRole('dialog').getByRole('button', { name: 'Overview' }).waitFor({ state: 'detached' });
    await page.getByRole('dialog').getByRole('button', { name: 'Sent emails' }).waitFor();
    await checkLooksAtBothWidths(page, 'palette', (p) => p.getByRole('textbox', { name: 'Jump to a screen, a project, a team or a user' }).waitFor(), 1280);
    await search.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Sent emails' }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/c/this-service/p/${encodeURIComponent(projectId)}/sent-emails`);
    await search.waitFor({ state: 'hidden' });
  });

  test('a user found by email: arrow down to it, Enter opens the user\'s page', async () => {
    const ann = members[0]!;
    await page.getByRole('heading', { level: 1 }).first().click();
    const search = await openPalette();
    await page.keyboard.type(ann.email);
    const palette = page.getByRole('dialog');
    await palette.getByRole('button', { name: ann.email }).waitFor();
    // Only the user the service found for this address.
    expect(await palette.getByRole('button', { name: /@example\.com/ }).count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await search.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).hash).toBe(`#/c/this-service/p/${encodeURIComponent(projectId)}/users/${ann.id}`);
  });

  test('Enter right after typing an email opens the user the search finds a moment later', async () => {
    const bob = members[1]!;
    await page.getByRole('heading', { level: 1 }).first().click();
    const search = await openPalette();
    await page.keyboard.type(bob.email);
    await page.keyboard.press('Enter');
    await search.waitFor({ state: 'hidden' });
    await page.waitForURL((url) => url.hash === `#/c/this-service/p/${encodeURIComponent(projectId)}/users/${bob.id}`);
  });

  test('a team by its name: typed, Enter opens its page', async () => {
    const name = `Palette crew ${crypto.randomUUID().slice(0, 6)}`;
    const made = await serverApi(svc.url, projectId, keys.secretServerKey).post('/teams', { display_name: name });
    expect(made.status).toBe(201);
    await page.getByRole('heading', { level: 1 }).first().click();
    const search = await openPalette();
    await page.keyboard.type('palette crew');
    await page.getByRole('dialog').getByRole('button', { name }).waitFor();
    await page.keyboard.press('Enter');
    await search.waitFor({ state: 'hidden' });
    await page.waitForURL((url) => url.hash === `#/c/this-service/p/${encodeURIComponent(projectId)}/teams/${made.body.id}`);
  });
});
