// The Metrics screen as an owner sees it: a new project's empty charts (and the skeleton while the figures load),
// then users signed up through the API from two countries, some of them active, with the screen showing exactly
// what GET /internal/metrics returns; an admin key revoked under an open console gives the error state.
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { adminApi, clientApi, serverApi } from '../../service/test/support/service';
import { isolatedDatabase } from '../../service/test/support/isolated-database';
import { checkLooks, checkLooksAtBothWidths, createAllKeys, createProject, openConsole, openScreen, setupConsoleSuite, signUpOwner, uniqueEmail, type ShownKeys } from './support/console';

// Under DATABASE_URL a database of its own: no other test's service shares these users' activity writer.
const db = process.env.DATABASE_URL ? await isolatedDatabase() : undefined;
// Countries come from a proxy's cf-ipcountry header, believed only behind a trusted proxy (GATEHOUSE_TRUST_PROXY).
const { svc } = await setupConsoleSuite({ env: { GATEHOUSE_TRUST_PROXY: 'true', ...(db?.url ? { DATABASE_URL: db.url } : {}) } });
let context: BrowserContext;
let page: Page;
let projectId: string;
let keys: ShownKeys;
const admin = () => adminApi(svc.url, projectId, keys.superSecretAdminKey);

afterAll(async () => { await context?.close(); await db?.drop(); });

const CARDS = ['sign-ups', 'active', 'methods', 'countries', 'recent-sign-ups', 'recently-active'];
const card = (p: Page, id: string) => p.getByTestId(`metrics-${id}`);
const text = async (p: Page, testId: string) => (await p.getByTestId(testId).textContent())?.trim();

/** A browser's sign-up (activity is recorded for browser requests, with the country a proxy would add). */
async function signUp(country?: string) {
  const headers = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0', 'x-forwarded-for': '203.0.113.9', ...(country ? { 'cf-ipcountry': country } : {}) };
  const email = uniqueEmail('metrics');
  const res = await clientApi(svc.url, projectId, keys.publishableClientKey).post('/auth/password/sign-up', { email, password: 'a-long-password-1' }, { headers });
  expect(res.status).toBe(200);
  return res.body.user_id as string;
}

describe('metrics', () => {
  test('setup: an owner with a project and its keys', async () => {
    ({ context, page } = await openConsole(svc));
    await signUpOwner(page);
    projectId = await createProject(page, 'Charts');
    keys = await createAllKeys(page, 'Tests');
  });

  test('a new project: a skeleton while loading, then every chart with its empty state and zeros', async () => {
    // The figures are held back a moment so the skeleton can be seen (the request still goes to the service).
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    await page.route('**/api/v1/internal/metrics', async (route) => { await held; await route.continue(); });
    // Opened afresh (a reload at the Metrics address): the overview may have read the figures moments ago, and the
    // client library's cache would show them at once, with no skeleton to see.
    await page.goto(page.url().replace(/\/[^/]+$/, '/metrics'));
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Metrics' }).waitFor();
    await page.getByRole('main').getByTestId('skeleton').waitFor();
    await checkLooks(page, 'metrics-loading', (p) => p.getByRole('main').getByTestId('skeleton').waitFor());
    release();
    await page.getByTestId('metrics').waitFor();
    await page.unroute('**/api/v1/internal/metrics');

    for (const id of CARDS) await card(page, id).getByTestId('empty-state').waitFor();
    expect(await text(page, 'metrics-total-users')).toBe('0');
    expect(await text(page, 'metrics-sign-ups-total')).toBe('0');
    expect(await text(page, 'metrics-active-today')).toBe('0');
    expect(await page.locator('.recharts-surface').count()).toBe(0);
    await checkLooks(page, 'metrics-empty', (p) => p.getByTestId('metrics').waitFor());
    await checkLooksAtBothWidths(page, 'metrics-empty', (p) => p.getByTestId('metrics').waitFor());
  });

  test('seeded users: the screen shows the numbers GET /internal/metrics returns', async () => {
    for (const country of ['DE', 'DE', 'US', 'FR', undefined]) await signUp(country);
    // Made by the server: no sign-in yet, so not active; one with a password.
    const server = serverApi(svc.url, projectId, keys.secretServerKey);
    const quiet = await server.post('/users', { display_name: 'Quiet Quinn', primary_email: uniqueEmail('quiet') });
    const withPassword = await server.post('/users', { primary_email: uniqueEmail('pw'), primary_email_auth_enabled: true, password: 'a-long-password-2' });
    expect([quiet.status, withPassword.status]).toEqual([201, 201]);

    // Activity is written in batches: wait until the API counts the five sign-ins and their three countries.
    let m: any;
    for (let i = 0; ; i++) {
      m = (await admin().get('/internal/metrics')).body;
      if (m.daily_active_users.at(-1).activity === 5 && Object.keys(m.users_by_country).length === 3) break;
      if (i > 100) throw new Error(`activity never showed up: ${JSON.stringify(m)}`);
      await Bun.sleep(200);
    }
    expect(m.total_users).toBe(7);

    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByTestId('metrics-total-users').filter({ hasText: /^7$/ }).waitFor();
    const sum = (points: any[]) => points.reduce((n, p) => n + p.activity, 0);
    expect(await text(page, 'metrics-sign-ups-total')).toBe(String(sum(m.daily_users)));
    expect(await text(page, 'metrics-active-today')).toBe(String(m.daily_active_users.at(-1).activity));

    // Each day of both series, from the table under its chart.
    for (const [id, series] of [['sign-ups', m.daily_users], ['active', m.daily_active_users]] as const) {
      await card(page, id).locator('.recharts-surface').waitFor();
      await card(page, id).getByText('Numbers per day').click();
      const rows = await card(page, id).getByTestId(`metrics-${id}-days`).locator('tbody tr').evaluateAll((trs) =>
        trs.map((tr) => ({ date: tr.getAttribute('data-date'), activity: Number(tr.querySelectorAll('td')[1]!.textContent) })));
      expect(rows).toEqual(series);
    }

    // Methods and countries: each bar's name and value, in the API's figures.
    const bars = async (id: string) => card(page, id).getByTestId('metrics-bar').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
    const methodText = (await card(page, 'methods').textContent())!;
    expect(await bars('methods')).toEqual(m.login_methods.map((x: any) => x.count).sort((a: number, b: number) => b - a));
    expect(m.login_methods).toEqual([{ method: 'password', count: 6 }]);
    expect(methodText).toContain('Password');
    expect(methodText).toContain('6');
    expect(m.users_by_country).toEqual({ DE: 2, US: 1, FR: 1 });
    expect(await bars('countries')).toEqual([2, 1, 1]);
    const countries = (await card(page, 'countries').textContent())!;
    for (const name of ['Germany', 'France', 'United States']) expect(countries).toContain(name);
    expect(await text(page, 'metrics-unlocated')).toBe(`Users without a known location: ${7 - 4}`);

    // Recent lists: the API's users, in its order.
    const listed = (id: string) => card(page, id).getByTestId('metrics-user').evaluateAll((els) => els.map((e) => e.getAttribute('data-user-id')));
    expect(await listed('recent-sign-ups')).toEqual(m.recently_registered.map((u: any) => u.id));
    expect(await listed('recently-active')).toEqual(m.recently_active.map((u: any) => u.id));
    expect(m.recently_registered.map((u: any) => u.id)).toContain(quiet.body.id);
    expect(await card(page, 'recent-sign-ups').getByText('Quiet Quinn').count()).toBe(1);

    for (const id of CARDS) expect(await card(page, id).getByTestId('empty-state').count()).toBe(0);
    await checkLooks(page, 'metrics', (p) => p.getByTestId('metrics-sign-ups').locator('.recharts-surface').waitFor());
    await checkLooksAtBothWidths(page, 'metrics', (p) => p.getByTestId('metrics-sign-ups').locator('.recharts-surface').waitFor());
  });

  test('the admin key of an open console is revoked: the error state, and "Try again" still refuses', async () => {
    const second = (await admin().post('/internal/api-keys', {
      description: 'Console key', expires_at_millis: Date.now() + 86_400_000,
      has_publishable_client_key: false, has_secret_server_key: false, has_super_secret_admin_key: true,
    })).body;
    const { context: keyContext, page: p } = await openConsole(svc);
    try {
      await p.getByRole('tab', { name: 'Project admin key' }).click();
      await p.getByLabel('Project ID').fill(projectId);
      await p.getByLabel('Super secret admin key').fill(second.super_secret_admin_key);
      await p.getByRole('button', { name: 'Connect project' }).click();
      await openScreen(p, 'Metrics');
      await p.getByTestId('metrics-total-users').filter({ hasText: /^7$/ }).waitFor();
      // Away from the figures long enough for the console to forget them (its reads are kept 5 s after use).
      await openScreen(p, 'Webhooks');
      await p.waitForTimeout(6_000);

      expect((await admin().patch(`/internal/api-keys/${second.id}`, { revoked: true })).status).toBe(200);
      await openScreen(p, 'Metrics');
      const error = p.getByRole('main').getByTestId('screen-error');
      await error.waitFor();
      expect(await error.textContent()).toMatch(/revoked|not valid|invalid/i);
      await p.getByRole('button', { name: 'Try again' }).click();
      await p.getByRole('main').getByTestId('screen-error').waitFor();
      await checkLooks(p, 'metrics-error', (pg) => pg.getByRole('main').getByTestId('screen-error').waitFor());
    } finally {
      await keyContext.close();
    }
  });
});
