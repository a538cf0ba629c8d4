// The user list's filters (verified email, password, MFA, signed in within N days) and the CSV export of what they
// match, downloaded from the console as a file.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { clientApi, serverApi } from '../../service/test/support/service';
import {
  checkLooks, checkLooksOnPhone, createAllKeys, createProject, openConsole, openScreen, selectOption, setupConsoleSuite, signUpOwner, uniqueEmail, type ShownKeys,
} from './support/console';

const { svc } = await setupConsoleSuite();
let context: BrowserContext;
let page: Page;
let projectId: string;
let keys: ShownKeys;
const server = () => serverApi(svc.url, projectId, keys.secretServerKey);
const ids: Record<string, string> = {};

afterAll(async () => context?.close());

const shownIds = () => page.getByTestId('user-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-user-id')).sort());
/** Waits until the list shows exactly these users (it reads the service again after each change). */
async function listShows(...names: string[]) {
  const want = names.map((n) => ids[n]!).sort();
  await page.waitForFunction((w) => {
    const got = [...document.querySelectorAll('[data-testid="user-row"]')].map((r) => r.getAttribute('data-user-id')).sort();
    return JSON.stringify(got) === JSON.stringify(w) && !document.querySelector('[aria-busy="true"]');
  }, want, { timeout: 15_000 }).catch(async () => { expect(await shownIds()).toEqual(want); });
}

describe('user list filters and CSV export', () => {
  test('setup: an owner, a project, and users with and without a password, a verified email, MFA, a recent sign-in', async () => {
    ({ context, page } = await openConsole(svc, { width: 1280 }));
    await signUpOwner(page);
    projectId = await createProject(page, 'Filters & Co');
    keys = await createAllKeys(page, 'Tests');
    ids.verified = (await server().post('/users', { primary_email: uniqueEmail('verified'), primary_email_verified: true, password: 'a-long-password-1', display_name: 'Vera Verified' })).body.id;
    ids.mfa = (await server().post('/users', { display_name: 'Mo Mfa', totp_secret_base64: Buffer.from('12345678901234567890').toString('base64') })).body.id;
    const signUp = await clientApi(svc.url, projectId, keys.publishableClientKey).post('/auth/password/sign-up', {
      email: uniqueEmail('active'), password: 'a-long-password-1', verification_callback_url: `${svc.url}/handler/email-verification`,
    });
    expect(signUp.status).toBe(200);
    ids.active = signUp.body.user_id;
    await openScreen(page, 'Users');
    await listShows('verified', 'mfa', 'active');
    // The keys' toast has closed by itself (it lay over the header in the screenshots).
    await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 15_000 });
  });

  test('each filter narrows the list; two at once; days out of range are said under the field', async () => {
    await selectOption(page, 'Password', 'Has a password');
    await listShows('verified', 'active');
    await selectOption(page, 'Email', 'Verified');
    await listShows('verified');
    await selectOption(page, 'Email', 'Not verified');
    await listShows('active');
    // The pointer rests where the last option was: off the table, whose hovered row is not what is looked at.
    await page.mouse.move(0, 0);
    await checkLooks(page, 'users-filtered', (p) => p.getByTestId('user-filters').waitFor());
    await checkLooksOnPhone(page, 'users-filtered', (p) => p.getByTestId('user-filters').waitFor());
    await selectOption(page, 'Email', 'Any');
    await selectOption(page, 'Password', 'No password');
    await listShows('mfa');
    await selectOption(page, 'Password', 'Any');
    await selectOption(page, 'MFA (two-factor)', 'Off');
    await listShows('verified', 'active');
    await selectOption(page, 'MFA (two-factor)', 'Any');
    await page.getByLabel('Signed in within (days)').fill('1');
    await listShows('active');
    await page.getByLabel('Signed in within (days)').fill('40000');
    await page.getByText('A whole number of days from 1 to 36500').waitFor();
    await page.getByLabel('Signed in within (days)').fill('');
    await selectOption(page, 'MFA (two-factor)', 'On');
    await listShows('mfa');
    await selectOption(page, 'MFA (two-factor)', 'Any');
  });

  test('Export CSV saves the filtered users as a file: a header line, one line a user', async () => {
    await selectOption(page, 'Password', 'Has a password');
    await listShows('verified', 'active');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^users-filters-co-\d{4}-\d\d-\d\d\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('id,primary_email,primary_email_verified,display_name,has_password,has_mfa,signed_up_at,last_active_at');
    // Newest first, as the list.
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([ids.active, ids.verified]);
    expect(lines.find((l) => l.startsWith(ids.verified!))).toContain(',true,Vera Verified,true,false,');
  });
});
