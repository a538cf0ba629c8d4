// An owner runs a project's users from the console: creates users (the form checks before sending) and sees those
// created through the server API, finds one by search, pages through 250 users seeing each exactly once (and in
// the other order), edits the metadata tiers (invalid JSON refused before sending), revokes a session (the user's
// refresh is refused afterwards), impersonates a user (the account kit's Active Sessions shows the impersonation
// badge) and deletes a user.
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { adminApi, clientApi, serverApi } from '../../service/test/support/service';
import {
  checkLooksAtBothWidths, createAllKeys, createProject, notification, openConsole, openScreen, setChecked, setupConsoleSuite, signUpOwner, uniqueEmail, withRetriesHurried, type ShownKeys,
} from './support/console';

const { svc } = await setupConsoleSuite();
let context: BrowserContext;
let page: Page;
let projectId: string;
let keys: ShownKeys;
const PASSWORD = 'user-password-1';
const server = () => serverApi(svc.url, projectId, keys.secretServerKey);
const admin = () => adminApi(svc.url, projectId, keys.superSecretAdminKey);
const client = () => clientApi(svc.url, projectId, keys.publishableClientKey);

afterAll(async () => context?.close());

async function createThroughApi(body: Record<string, unknown>): Promise<string> {
  const res = await server().post('/users', body);
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** Every user id of the project, through the server API's own paging. */
async function allUserIds(): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: any } = await server().get(`/users?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    ids.push(...(res.body.items as { id: string }[]).map((u) => u.id));
    cursor = res.body.pagination.next_cursor;
  } while (cursor);
  return ids;
}

/** The user ids of the table once its page has loaded. */
async function shownIds(): Promise<string[]> {
  await page.getByTestId('user-row').first().waitFor();
  await page.waitForFunction(() => document.querySelector('[aria-busy="true"]') === null);
  return page.getByTestId('user-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-user-id')!));
}

/** The Users screen opened afresh (empty search, newest first, first page), as after coming from another screen. */
async function freshUsers() {
  await openScreen(page, 'API keys');
  await openScreen(page, 'Users');
}

/** The order's segmented control: a person clicks its label (the radio inputs themselves are hidden). */
async function chooseOrder(order: 'Newest first' | 'Oldest first') {
  await page.locator('label').filter({ hasText: new RegExp(`^${order}$`) }).click();
}

async function openUser(email: string) {
  await freshUsers();
  await page.getByLabel('Search users').fill(email);
  const row = page.getByTestId('user-row').filter({ hasText: email });
  await row.waitFor();
  await row.getByRole('link').click();
  await page.getByRole('button', { name: 'Delete user' }).waitFor();
}

describe('users', () => {
  test('setup: an owner with a project and its keys', async () => {
    ({ context, page } = await openConsole(svc, { width: 1280 }));
    await signUpOwner(page);
    projectId = await createProject(page, 'People');
    keys = await createAllKeys(page, 'Tests');
  });

  test('skeleton while loading, error state with retry, empty state', async () => {
    // The browser holds the list request back, then fails one: what the owner sees meanwhile.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/v1/users?**', async (route) => {
      await held;
      await route.continue();
    });
    await openScreen(page, 'Users');
    await page.getByTestId('skeleton').waitFor();
    await checkLooksAtBothWidths(page, 'users-loading', (p) => p.getByTestId('skeleton').waitFor(), 1280);
    release();
    await page.getByTestId('empty-state').filter({ hasText: 'No users yet.' }).waitFor();
    await page.unroute('**/api/v1/users?**');
    // The client library retries a failed request a few times before it gives up: every try fails here.
    await page.route('**/api/v1/users?**', (route) => route.abort('connectionrefused'));
    await withRetriesHurried(page, async () => {
      await chooseOrder('Oldest first');
      await page.getByTestId('screen-error').waitFor({ timeout: 120_000 });
    });
    await page.unroute('**/api/v1/users?**');
    await checkLooksAtBothWidths(page, 'users-error', (p) => p.getByTestId('screen-error').waitFor(), 1280);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('empty-state').filter({ hasText: 'No users yet.' }).waitFor();
    await checkLooksAtBothWidths(page, 'users-empty', (p) => p.getByTestId('empty-state').waitFor(), 1280);
  });

  test('create a user in the console (checked before sending) and through the server API', async () => {
    await openScreen(page, 'Users');
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a user' });
    await dialog.getByLabel('Email', { exact: true }).fill('not-an-email');
    await dialog.getByLabel('Password', { exact: true }).fill('short');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.getByText('Enter a valid email address').waitFor();
    await dialog.getByText(/Password too short/i).waitFor();
    expect(await allUserIds()).toEqual([]);

    const email = uniqueEmail('console-made');
    await dialog.getByLabel('Email', { exact: true }).fill(email);
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await setChecked(dialog.getByRole('checkbox', { name: 'Email verified' }), true);
    await dialog.getByLabel('Display name').fill('Ada Console');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await notification(page, `User ${email} created`);
    const row = page.getByTestId('user-row').filter({ hasText: email });
    await row.waitFor();
    expect(await row.textContent()).toContain('Ada Console');
    expect(await row.textContent()).toContain('Verified');
    expect(await row.textContent()).toContain('Password');
    const made = (await server().get(`/users?query=${encodeURIComponent(email)}`)).body.items[0];
    expect({ email: made.primary_email, verified: made.primary_email_verified, name: made.display_name, password: made.has_password })
      .toEqual({ email, verified: true, name: 'Ada Console', password: true });
    // Signs in with the password given in the console.
    expect((await client().post('/auth/password/sign-in', { email, password: PASSWORD })).status).toBe(200);

    const apiEmail = uniqueEmail('api-made');
    await createThroughApi({ primary_email: apiEmail, display_name: 'Bert Api', primary_email_auth_enabled: true });
    await freshUsers();
    const apiRow = page.getByTestId('user-row').filter({ hasText: apiEmail });
    await apiRow.waitFor();
    expect(await apiRow.textContent()).toContain('Unverified');
    // Made by the API and never signed in: no "last active" time (the console-made user signed in above).
    expect(await apiRow.textContent()).toContain('Never signed in');
    expect(await row.textContent()).not.toContain('Never signed in');

    await checkLooksAtBothWidths(page, 'users-list', (p) => p.getByTestId('user-row').first().waitFor(), 1280);
    // Without a password, the console gives a code by email: offered while sign-in codes are off, not chosen.
    await page.getByRole('button', { name: 'Create user' }).click();
    let second = page.getByRole('dialog', { name: 'Create a user' });
    await second.getByTestId('codes-off').waitFor();
    expect(await second.getByRole('radio', { name: 'With a code mailed to their address' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    expect((await admin().patch('/projects/current', { config: { magic_link_enabled: true } })).status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByRole('button', { name: 'Create user' }).click();
    second = page.getByRole('dialog', { name: 'Create a user' });
    const codeEmail = uniqueEmail('code-made');
    await second.getByLabel('Email', { exact: true }).fill(codeEmail);
    await second.getByRole('radio', { name: 'With a code mailed to their address' }).check();
    expect(await second.getByLabel('Password', { exact: true }).count()).toBe(0);
    await second.getByRole('button', { name: 'Create user' }).click();
    await notification(page, `User ${codeEmail} created`);
    const codeMade = (await server().get(`/users?query=${encodeURIComponent(codeEmail)}`)).body.items[0];
    expect({ otp: codeMade.otp_auth_enabled, password: codeMade.has_password }).toEqual({ otp: true, password: false });
    // The API-made user (no password, no code) is told apart on their page.
    await apiRow.getByRole('link').first().click();
    await page.getByTestId('no-way-in').filter({ hasText: 'This user has no way to sign in' }).waitFor();
    await page.goBack();
  });

  test('find a user by search', async () => {
    const needle = uniqueEmail('needle');
    await createThroughApi({ primary_email: needle, display_name: 'Cleo Needle' });
    await createThroughApi({ primary_email: uniqueEmail('hay'), display_name: 'Dan Hay' });
    await freshUsers();
    await page.getByLabel('Search users').fill('Cleo Needle');
    await page.getByTestId('user-row').filter({ hasText: needle }).waitFor();
    // The unfiltered page stays on screen until the search's answer replaces it (the needle is on it too).
    await page.getByTestId('user-row').filter({ hasNotText: needle }).first().waitFor({ state: 'detached' });
    expect(await shownIds()).toHaveLength(1);
    expect(await page.getByTestId('user-email').allTextContents()).toEqual([needle]);
    await page.getByLabel('Search users').fill('nobody-here-at-all');
    await page.getByTestId('empty-state').filter({ hasText: 'No users match "nobody-here-at-all".' }).waitFor();
  });

  test('page through 250 more users: each exactly once, newest and oldest first', async () => {
    const seeded: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      seeded.push(...await Promise.all(Array.from({ length: 25 }, (_, i) =>
        createThroughApi({ primary_email: `paged-${batch}-${i}-${crypto.randomUUID().slice(0, 6)}@example.com`, display_name: `Paged ${batch}-${i}` }))));
    }
    const everyone = await allUserIds();
    expect(everyone).toHaveLength(255);
    for (const order of ['Newest first', 'Oldest first'] as const) {
      await freshUsers();
      await chooseOrder(order);
      const seen: string[] = [];
      for (let n = 1; ; n++) {
        await page.getByTestId('users-page-number').filter({ hasText: `Page ${n}` }).waitFor();
        const ids = await shownIds();
        expect(ids.length).toBeLessThanOrEqual(25);
        seen.push(...ids);
        const next = page.getByRole('button', { name: 'Next page' });
        if (await next.isDisabled()) break;
        await next.click();
      }
      expect(seen).toHaveLength(255);
      expect(new Set(seen).size).toBe(255);
      expect([...seen].sort()).toEqual([...everyone].sort());
      expect(seen.filter((id) => seeded.includes(id))).toHaveLength(250);
    }
    // Back from page 2 shows page 1 again.
    await freshUsers();
    const first = await shownIds();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByTestId('users-page-number').filter({ hasText: 'Page 2' }).waitFor();
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.getByTestId('users-page-number').filter({ hasText: 'Page 1' }).waitFor();
    expect(await shownIds()).toEqual(first);
  });

  test("a user's page: edit the metadata tiers, invalid JSON refused in the form", async () => {
    const email = uniqueEmail('meta');
    const id = await createThroughApi({ primary_email: email, display_name: 'Meta Person', server_metadata: { plan: 'free' } });
    await openUser(email);
    const serverEditor = page.getByRole('textbox', { name: 'Server metadata' });
    expect(JSON.parse(await serverEditor.inputValue())).toEqual({ plan: 'free' });
    const clientEditor = page.getByRole('textbox', { name: 'Client metadata', exact: true });
    await clientEditor.fill('{"theme": "dark",');
    await page.getByRole('button', { name: 'Save Client metadata' }).click();
    await page.getByText(/^Not valid JSON/).waitFor();
    expect((await server().get(`/users/${id}`)).body.client_metadata).toBeNull();

    await clientEditor.fill('{"theme": "dark"}');
    await page.getByRole('button', { name: 'Save Client metadata' }).click();
    await notification(page, 'Client metadata saved');
    await serverEditor.fill('{"plan": "pro", "seats": 3}');
    await page.getByRole('button', { name: 'Save Server metadata' }).click();
    await notification(page, 'Server metadata saved');
    await page.getByRole('textbox', { name: 'Client read-only metadata' }).fill('["a", 1]');
    await page.getByRole('button', { name: 'Save Client read-only metadata' }).click();
    await notification(page, 'Client read-only metadata saved');
    const stored = (await server().get(`/users/${id}`)).body;
    expect([stored.client_metadata, stored.client_read_only_metadata, stored.server_metadata]).toEqual([{ theme: 'dark' }, ['a', 1], { plan: 'pro', seats: 3 }]);

    // Profile: name, verified flag and a password, through the server-writable fields.
    await page.getByLabel('Display name').fill('Meta Renamed');
    await setChecked(page.getByRole('checkbox', { name: 'Email verified' }), true);
    await page.getByLabel('Set a password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await notification(page, 'Profile saved');
    const profile = (await server().get(`/users/${id}`)).body;
    expect([profile.display_name, profile.primary_email_verified, profile.has_password]).toEqual(['Meta Renamed', true, true]);
    await checkLooksAtBothWidths(page, 'user-page', (p) => p.getByRole('button', { name: 'Delete user' }).waitFor(), 1280);
  });

  test("revoke a session: the user's next refresh is refused", async () => {
    const email = uniqueEmail('session');
    await createThroughApi({ primary_email: email, password: PASSWORD, primary_email_auth_enabled: true });
    const signIn = await client().post('/auth/password/sign-in', { email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    const refreshToken = signIn.body.refresh_token as string;
    expect((await client().post('/auth/sessions/current/refresh', {}, { refreshToken })).status).toBe(200);
    await openUser(email);
    const row = page.getByTestId('session-row');
    await row.waitFor();
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: /^Revoke the session/ }).click();
    await notification(page, 'Session revoked');
    await page.getByText('No active sessions.').waitFor();
    const refused = await client().post('/auth/sessions/current/refresh', {}, { refreshToken });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
  });

  test('disconnect an OAuth account (issue 30): refused while it is the only way in, then done once the user has a password', async () => {
    const email = uniqueEmail('oauth');
    const createdId = await createThroughApi({ primary_email: email, oauth_providers: [{ id: 'github', account_id: `gh-${Date.now()}`, email: 'octo@example.com' }] });
    await openUser(email);
    const account = page.getByTestId('oauth-account');
    await account.getByText('octo@example.com').waitFor();
    await account.getByRole('button', { name: 'Disconnect github' }).click();
    await page.getByText("This is the user's only way to sign in").waitFor();
    expect((await server().get(`/users/${createdId}`)).body.oauth_providers).toHaveLength(1);
    expect((await server().patch(`/users/${createdId}`, { password: PASSWORD })).status).toBe(200);
    await openUser(email);
    await page.getByTestId('oauth-account').getByRole('button', { name: 'Disconnect github' }).click();
    await notification(page, 'OAuth account disconnected');
    expect((await server().get(`/users/${createdId}`)).body.oauth_providers).toEqual([]);
  });

  test('impersonate: the demo opens signed in as the user, labelled; the console lists the session as an impersonation', async () => {
    const email = uniqueEmail('imp');
    const userId = await createThroughApi({ primary_email: email, display_name: 'Ivy Impersonated', primary_email_auth_enabled: true });
    await openUser(email);
    await page.getByRole('button', { name: 'Impersonate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Impersonate this user' });
    await dialog.getByRole('button', { name: 'Create impersonation session' }).click();
    const open = dialog.getByRole('link', { name: 'Open the demo as this user (impersonation)' });
    await open.waitFor();
    const [demo] = await Promise.all([context.waitForEvent('page'), open.click()]);
    await demo.waitForLoadState();
    // The token left the address as soon as the demo took it.
    await demo.waitForFunction(() => !location.hash.includes('impersonation_refresh_token'));
    // The demo labels the tab, and it is signed in as the user: their profile in the account kit's settings.
    await demo.getByTestId('impersonation-label').filter({ hasText: 'Impersonation' }).waitFor();
    await demo.getByText('Ivy Impersonated').first().waitFor();
    // The session the demo keeps is the user's: its refresh cookie gives their access token.
    const refreshToken = await demo.evaluate((name) => document.cookie.split('; ').find((c) => c.startsWith(`${name}=`))?.split('=')[1], `stack-refresh-${projectId}`);
    const refreshed = await client().post('/auth/sessions/current/refresh', {}, { refreshToken: decodeURIComponent(refreshToken!) });
    expect((await client().get('/users/me', { accessToken: refreshed.body.access_token })).body.id).toBe(userId);
    await demo.screenshot({ path: `${import.meta.dir}/artifacts/users-impersonation-demo.png`, fullPage: true });
    // Active Sessions: the user's own (client) listing hides impersonation sessions (protocol-auth §2.7), so their
    // page lists none, while the admin listing below shows it with its badge.
    await demo.goto('/handler/account-settings#sessions');
    await demo.reload();
    await demo.getByRole('heading', { name: 'Active Sessions', exact: true }).first().waitFor();
    await demo.getByText('No active sessions found').waitFor().catch(async (err) => {
      await demo.screenshot({ path: `${import.meta.dir}/artifacts/users-impersonation-failed.png`, fullPage: true });
      throw err;
    });
    await demo.getByTestId('impersonation-label').waitFor();
    // It is the user's session, and the console lists it labelled.
    const listed = async (api: typeof admin) => (await api().get(`/auth/sessions?user_id=${userId}`)).body.items.map((s: { is_impersonation: boolean }) => s.is_impersonation);
    expect(await listed(admin)).toEqual([true]);
    expect(await listed(server)).toEqual([]);
    await demo.close();
    await openUser(email);
    await page.getByTestId('session-row').filter({ hasText: 'Impersonation' }).waitFor();
  });

  test('delete a user, with confirmation', async () => {
    const email = uniqueEmail('doomed');
    const id = await createThroughApi({ primary_email: email, display_name: 'Doomed' });
    await openUser(email);
    await page.getByRole('button', { name: 'Delete user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this user?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await server().get(`/users/${id}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete user' }).click();
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await notification(page, `User ${email} deleted`);
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    expect((await server().get(`/users/${id}`)).status).toBe(404);
  });
});
