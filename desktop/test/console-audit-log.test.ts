// The Audit log screen as an owner uses it (issue 26): a user of the project signs in once with a wrong password and
// once with the right one, and the owner creates API keys; the log shows them newest first, in words, the user linked
// to their page; the kind, time and user filters narrow it; "Load more" reads older entries; the user's page shows
// their recent activity and links to the log filtered to them. Skeleton, error and empty states; 1280 and 390 px,
// light and dark, axe.
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { clientApi, serverApi } from '../../service/test/support/service';
import {
  checkLooks, checkLooksOnPhone, createAllKeys, createProject, openConsole, openScreen, selectOption, setupConsoleSuite, signUpOwner, uniqueEmail, withRetriesHurried, type ShownKeys,
} from './support/console';

const { svc } = await setupConsoleSuite();
let context: BrowserContext;
let page: Page;
let projectId: string;
let keys: ShownKeys;
const alice = { email: uniqueEmail('alice'), password: 'alice-password-1', id: '' };
const bob = { email: uniqueEmail('bob'), password: 'bob-password-1', id: '' };
const client = () => clientApi(svc.url, projectId, keys.publishableClientKey);

afterAll(async () => context?.close());

const shownEvents = (p: Page, within = p.getByRole('main')) => within.getByTestId('audit-row').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-event')} ${r.getAttribute('data-user-id')}`.trim()));

/** Waits until the table shows exactly these rows (`event userId`, newest first). */
async function logShows(want: string[], within = page.getByRole('main')) {
  await page.waitForFunction((w) => {
    const got = [...document.querySelectorAll('main [data-testid="audit-row"]')].map((r) => `${r.getAttribute('data-event')} ${r.getAttribute('data-user-id')}`.trim());
    return JSON.stringify(got) === JSON.stringify(w) && !document.querySelector('[aria-busy="true"]');
  }, want, { timeout: 15_000 }).catch(async () => { expect(await shownEvents(page, within)).toEqual(want); });
}

async function bothWidths(name: string, ready: (p: Page) => Promise<void>) {
  await checkLooks(page, `${name}-1280`, ready);
  await checkLooksOnPhone(page, name, ready);
}

describe('audit log', () => {
  test('setup: an owner with a project and its keys; two users sign up', async () => {
    ({ context, page } = await openConsole(svc, { width: 1280 }));
    await signUpOwner(page);
    projectId = await createProject(page, 'Audited');
    keys = await createAllKeys(page, 'Tests');
    for (const u of [bob, alice]) {
      const res = await client().post('/auth/password/sign-up', { email: u.email, password: u.password });
      expect(res.status).toBe(200);
      u.id = res.body.user_id;
    }
  });

  test('skeleton while loading, error state with retry', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/v1/internal/audit-log**', async (route) => { await held; await route.continue(); });
    await openScreen(page, 'Audit log');
    await page.getByTestId('skeleton').waitFor();
    await bothWidths('audit-log-loading', (p) => p.getByTestId('skeleton').waitFor());
    release();
    await page.getByTestId('audit-row').first().waitFor();
    await page.unroute('**/api/v1/internal/audit-log**');
    // The client library retries a failed request a few times before it gives up: every try fails here.
    await page.route('**/api/v1/internal/audit-log**', (route) => route.abort('connectionrefused'));
    await withRetriesHurried(page, async () => {
      await selectOption(page, 'Time', 'Last 7 days');
      await page.getByTestId('screen-error').waitFor({ timeout: 120_000 });
    });
    await page.unroute('**/api/v1/internal/audit-log**');
    await bothWidths('audit-log-error', (p) => p.getByTestId('screen-error').waitFor());
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('audit-row').first().waitFor();
    await selectOption(page, 'Time', 'All time');
  });

  test('a wrong and a right sign-in and new API keys show up newest first, in words, the user linked', async () => {
    expect((await client().post('/auth/password/sign-in', { email: bob.email, password: bob.password })).status).toBe(200);
    expect((await client().post('/auth/password/sign-in', { email: alice.email, password: 'not-her-password' })).status).toBe(400);
    expect((await client().post('/auth/password/sign-in', { email: alice.email, password: alice.password })).status).toBe(200);
    await createAllKeys(page, 'Later');
    await openScreen(page, 'Audit log');
    await logShows([
      'api_key.created', `sign_in.succeeded ${alice.id}`, `sign_in.failed ${alice.id}`, `sign_in.succeeded ${bob.id}`, 'api_key.created', 'project.created',
    ]);
    const rows = page.getByRole('main').getByTestId('audit-row');
    await expect(rows.nth(0).innerText()).resolves.toMatch(/Project API keys created[\s\S]*Project owner/);
    const failed = rows.nth(2);
    await expect(failed.innerText()).resolves.toMatch(/Sign-in failed[\s\S]*Error: EMAIL_PASSWORD_MISMATCH/);
    await failed.getByRole('link', { name: alice.email }).first().waitFor();
    await expect(rows.nth(1).innerText()).resolves.toContain('Signed in');
    // Neither the typed password nor any key reaches the page.
    const text = await page.getByRole('main').innerText();
    for (const secret of ['not-her-password', alice.password, keys.secretServerKey, keys.superSecretAdminKey]) expect(text).not.toContain(secret);
    await page.mouse.move(0, 0);
    await bothWidths('audit-log', (p) => p.getByTestId('audit-row').first().waitFor());
  });

  test('the kind, time and user filters narrow the list; nothing matching is said so', async () => {
    await selectOption(page, 'Kind', 'Sign-in failed');
    await logShows([`sign_in.failed ${alice.id}`]);
    await selectOption(page, 'Kind', 'All sign-in events');
    await logShows([`sign_in.succeeded ${alice.id}`, `sign_in.failed ${alice.id}`, `sign_in.succeeded ${bob.id}`]);
    await selectOption(page, 'Time', 'Last 24 hours');
    await logShows([`sign_in.succeeded ${alice.id}`, `sign_in.failed ${alice.id}`, `sign_in.succeeded ${bob.id}`]);
    await page.getByRole('combobox', { name: 'User', exact: true }).fill(alice.email);
    await page.getByRole('option', { name: alice.email }).click();
    await logShows([`sign_in.succeeded ${alice.id}`, `sign_in.failed ${alice.id}`]);
    expect(page.url()).toContain(`/audit-log/${alice.id}`);
    await selectOption(page, 'Kind', 'Passkey added');
    await page.getByTestId('empty-state').filter({ hasText: 'No entries match these filters.' }).waitFor();
    await page.mouse.move(0, 0);
    await bothWidths('audit-log-no-match', (p) => p.getByTestId('empty-state').waitFor());
    await selectOption(page, 'Kind', 'All kinds');
    await logShows([`sign_in.succeeded ${alice.id}`, `sign_in.failed ${alice.id}`]);
    await page.getByRole('button', { name: 'Show every user' }).click();
    await logShows([
      'api_key.created', `sign_in.succeeded ${alice.id}`, `sign_in.failed ${alice.id}`, `sign_in.succeeded ${bob.id}`, 'api_key.created', 'project.created',
    ]);
    await selectOption(page, 'Time', 'All time');
  });

  test('the user page shows their recent activity and links to the log filtered to them', async () => {
    await page.getByRole('main').getByTestId('audit-row').nth(2).getByRole('link', { name: alice.email }).first().click();
    await page.getByRole('button', { name: 'Delete user' }).waitFor();
    const section = page.getByRole('region', { name: 'Recent activity' });
    await section.getByTestId('audit-row').nth(1).waitFor();
    expect(await shownEvents(page, section)).toEqual([`sign_in.succeeded ${alice.id}`, `sign_in.failed ${alice.id}`]);
    await section.scrollIntoViewIfNeeded();
    await bothWidths('audit-log-user-page', (p) => p.getByRole('region', { name: 'Recent activity' }).getByTestId('audit-row').first().waitFor());
    await section.getByRole('link', { name: 'Open in the audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    expect(page.url()).toContain(`/audit-log/${alice.id}`);
    await logShows([`sign_in.succeeded ${alice.id}`, `sign_in.failed ${alice.id}`]);
    await expect(page.getByRole('combobox', { name: 'User', exact: true }).inputValue()).resolves.toBe(alice.email);
  });

  test('"Load more" reads the older entries, 50 at a time, until there are none', async () => {
    const server = serverApi(svc.url, projectId, keys.secretServerKey);
    for (let i = 0; i < 50; i++) expect((await server.post('/auth/sessions', { user_id: bob.id, is_impersonation: true })).status).toBe(200);
    await openScreen(page, 'API keys');
    await openScreen(page, 'Audit log');
    const rows = page.getByRole('main').getByTestId('audit-row');
    await page.getByRole('button', { name: 'Load more' }).waitFor();
    expect(await rows.count()).toBe(50);
    expect(await rows.evaluateAll((r) => r.every((x) => x.getAttribute('data-event') === 'impersonation.created'))).toBe(true);
    await page.getByRole('button', { name: 'Load more' }).click();
    await logShows([
      ...Array.from({ length: 50 }, () => `impersonation.created ${bob.id}`),
      'api_key.created', `sign_in.succeeded ${alice.id}`, `sign_in.failed ${alice.id}`, `sign_in.succeeded ${bob.id}`, 'api_key.created', 'project.created',
    ]);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
  });
});
