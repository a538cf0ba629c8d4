// Every item of the settings page in every look (1280 and 390 px, light and dark): screenshots, axe-core
// without serious or critical violations, nothing sticking out sideways; and every action reachable with Tab
// and usable with Enter.
import { describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { checkEveryLook, screenshot, setupBrowserSuite } from '../support/browser';
import { settingsProject, signedInUser } from './support';

const { svc } = await setupBrowserSuite();
const project = await settingsProject(svc, { team_creator_default_permissions: [{ id: 'admin' }] });

/** A person with something in every section: a second email, a team with an invitation, an API key. */
async function furnishedUser() {
  const s = await signedInUser(svc, project);
  const team = await project.server.post('/teams', { display_name: 'Looks Team', creator_user_id: s.user.userId });
  expect(team.status).toBe(201);
  await project.server.post('/contact-channels', { user_id: s.user.userId, type: 'email', value: `alt-${s.user.userId.slice(0, 8)}@example.com`, used_for_auth: false, is_verified: true });
  await project.server.post('/team-invitations/send-code', { team_id: team.body.id, email: 'invitee@example.com', callback_url: `${svc.url}/handler/team-invitation` });
  await project.server.post('/user-api-keys', { user_id: s.user.userId, description: 'Deploy bot', expires_at_millis: null });
  return { ...s, teamId: team.body.id as string };
}

async function open(page: Page, hash: string, heading: string) {
  await page.goto(`/handler/account-settings${hash ? `#${hash}` : ''}`);
  await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
  // Wait for the item's data (skeletons gone).
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' }).catch(() => {});
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
}

/** Presses Tab up to `max` times; returns the accessible names of what got focus, in order. */
async function tabOrder(page: Page, max = 60): Promise<string[]> {
  await page.locator('body').click({ position: { x: 1, y: 70 } });
  const names: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    names.push(await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return '';
      const labelled = el.getAttribute('aria-labelledby');
      // Name from content leaves out what is aria-hidden (e.g. the initials on the image button).
      const content = el.cloneNode(true) as HTMLElement;
      content.querySelectorAll('[aria-hidden="true"]').forEach((n) => n.remove());
      return (el.getAttribute('aria-label') || (labelled && document.getElementById(labelled)?.textContent) || (el as HTMLInputElement).placeholder || content.textContent || '').trim();
    }));
  }
  return names;
}

describe('account settings: every look, axe, keyboard', () => {
  test('every item at 1280 and 390 px, light and dark', async () => {
    const { context, page, teamId } = await furnishedUser();
    const items: [string, string][] = [
      ['profile', 'My Profile'], ['auth', 'Emails & Auth'], ['sessions', 'Active Sessions'], ['api-keys', 'API Keys'],
      ['settings', 'Settings'], [`team-${teamId}`, 'Looks Team'], ['team-creation', 'Create a team'],
    ];
    for (const [hash, heading] of items) {
      await checkEveryLook(page, `settings-${hash.startsWith('team-') && hash !== 'team-creation' ? 'team' : hash}`, (p) => open(p, hash, heading));
    }
    // Small screens without a selection: the list alone.
    await checkEveryLook(page, 'settings-list', async (p) => {
      await p.goto('/handler/account-settings');
      await p.getByRole('heading', { name: 'Account Settings' }).waitFor();
    });
    await context.close();
  }, 240_000);

  test('small screens: the list, an item with a close button that returns to the list', async () => {
    const { context, page, user } = await furnishedUser();
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/handler/account-settings');
    await page.getByRole('link', { name: 'Active Sessions' }).click();
    await page.getByRole('heading', { name: 'Active Sessions', level: 2 }).waitFor();
    expect(await page.getByRole('link', { name: 'My Profile' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Close section' }).click();
    await page.getByRole('link', { name: 'My Profile' }).waitFor();
    // Back and forward work: the hash is the state.
    await page.goBack();
    await page.getByRole('heading', { name: 'Active Sessions', level: 2 }).waitFor();
    await screenshot(page, 'settings-small-back');
    // The columns a phone leaves out are folded under the first one, not lost.
    const session = page.getByTestId('session-row');
    expect(await page.getByRole('columnheader', { name: 'IP Address' }).filter({ visible: true }).count()).toBe(0);
    await session.getByText('127.0.0.1 · Unknown').waitFor();
    await session.getByText('Last used: just now').waitFor();
    await page.goto('/handler/account-settings#api-keys');
    const key = page.getByTestId('api-key-row');
    await key.getByText('Expires At: Never').waitFor();
    await key.getByText(/^\*{7}\w{4}$/).filter({ visible: true }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'Client Key' }).filter({ visible: true }).count()).toBe(0);
    // An email's badges go under the address.
    await page.goto('/handler/account-settings#auth');
    const email = page.getByRole('row').filter({ hasText: user.email });
    const [address, primary] = [email.getByText(user.email), email.getByText('Primary').filter({ visible: true })];
    await primary.waitFor();
    expect((await primary.boundingBox())!.y).toBeGreaterThan((await address.boundingBox())!.y);
    await context.close();
  }, 240_000);

  test('keyboard: every action of every item is reached with Tab; Enter uses it', async () => {
    const { context, page, teamId, user } = await furnishedUser();
    const expectations: [string, string, string[]][] = [
      ['profile', 'My Profile', ['Edit User name', 'Upload an image']],
      ['auth', 'Emails & Auth', ['Add an email', `Actions for ${user.email}`, 'Update password', 'Enable MFA']],
      // A session's button is named after it (its browser, system and sign-in time): '…' ends a name's known start.
      ['sessions', 'Active Sessions', ['Actions for Chrome Headless…']],
      ['api-keys', 'API Keys', ['Search table', 'Create API Key', 'Actions for API key Deploy bot']],
      ['settings', 'Settings', ['Danger zone', 'Sign out']],
      [`team-${teamId}`, 'Looks Team', ['Edit Team user name', 'Upload an image', 'Edit Team display name', 'Invite User', 'Revoke the invitation of invitee@example.com', 'Create API Key', 'Leave team']],
      ['team-creation', 'Create a team', ['Team name', 'Create']],
    ];
    for (const [hash, heading, actions] of expectations) {
      await open(page, hash, heading);
      const reached = await tabOrder(page, 70);
      const found = (a: string) => (a.endsWith('…') ? reached.some((r) => r.startsWith(a.slice(0, -1))) : reached.includes(a));
      for (const a of actions) expect({ item: hash, action: a, reached: found(a) }).toEqual({ item: hash, action: a, reached: true });
      // The sidebar's links too.
      expect(reached).toContain('Active Sessions');
    }
    // Enter on a focused action works: open the add-email form and the MFA enrolment by keyboard.
    await open(page, 'auth', 'Emails & Auth');
    await page.getByRole('button', { name: 'Add an email' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: 'New email address' }).waitFor();
    await page.getByRole('button', { name: 'Enable MFA' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Scan this QR code with your authenticator app:').waitFor();
    // A row's action menu opens with Enter and its items are reached with the arrow keys.
    await page.getByRole('button', { name: `Actions for ${user.email}` }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Send verification email' }).waitFor();
    await page.keyboard.press('Escape');
    await context.close();
  }, 240_000);

  test('German: every text of the page comes from the German catalogue', async () => {
    const { context, page } = await signedInUser(svc, project);
    await page.goto(`/?project_id=${project.id}&publishable_client_key=${project.keys.publishableClientKey}&lang=de`);
    await page.goto('/handler/account-settings#auth');
    await page.getByRole('heading', { name: 'Kontoeinstellungen' }).waitFor();
    await page.getByRole('heading', { name: 'E-Mails & Anmeldung', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'E-Mail hinzufügen' }).waitFor();
    await page.getByText('Die mehrstufige Authentifizierung ist derzeit deaktiviert.').waitFor();
    await screenshot(page, 'settings-auth-de');
    await context.close();
  }, 240_000);
});
