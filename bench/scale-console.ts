// The console's Users and Metrics screens at a scale-run size (issue 16 §1: "must stay usable at that size"), in
// Debian's Chromium (playwright-core) as an owner uses them: signs in through the console, then times, from the
// person's action to what they wait for on screen:
//  - opening Users: the nav click until the first page of rows is shown (not busy);
//  - a search: typing a name fragment until the matching rows are shown (this includes the screen's 250 ms debounce);
//  - the next page: the click until page 2's rows are shown;
//  - opening Metrics: the nav click until the total-users figure is shown.
// Each is repeated and the median kept. Used by bench/scale.ts when GATEHOUSE_BENCH_CONSOLE=1 (the service must serve
// /console: scale.ts builds the front ends first).
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../account-kit/test/support/browser';

export interface ConsoleTiming { name: string; median: number; max: number; n: number }

export interface ConsoleScaleRun {
  measure(size: number, o: { projectName: string; nameFragment: string }): Promise<ConsoleTiming[]>;
  close(): Promise<void>;
}

const REPEATS = Number(process.env.GATEHOUSE_BENCH_CONSOLE_REPEATS ?? 5);

export async function openConsoleScaleRun(baseUrl: string, owner: { email: string; password: string; internalKey: string }): Promise<ConsoleScaleRun> {
  const browser: Browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: baseUrl });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[console page error]', err.message));
  await page.goto('/console/');
  await signIn(page, owner).catch(async (e) => {
    await page.screenshot({ path: '/tmp/scale-console-sign-in.png' });
    throw e;
  });
  await page.getByRole('heading', { name: 'Projects' }).waitFor({ timeout: 60_000 });
  const projectsUrl = page.url();

  return {
    async measure(_size, { projectName, nameFragment }) {
      await page.goto(projectsUrl);
      await page.getByRole('button', { name: `Open ${projectName}` }).click();
      await page.getByRole('heading', { level: 1, name: projectName }).waitFor({ timeout: 60_000 });
      const samples: Record<string, number[]> = { 'console: open Users (first page shown)': [], 'console: search by name (typing to rows, incl. 250 ms debounce)': [], 'console: next page': [], 'console: open Metrics (total shown)': [] };
      const [openUsers, search, next, metrics] = Object.values(samples) as [number[], number[], number[], number[]];
      for (let k = 0; k < REPEATS; k++) {
        await nav(page, 'API keys');
        openUsers.push(await timed(async () => { await nav(page, 'Users'); await settledRows(page); }));
        // A different fragment length each time: the client must not answer from what it already has.
        const fragment = nameFragment.slice(0, Math.max(3, nameFragment.length - k));
        const box = page.getByLabel('Search users');
        search.push(await timed(async () => {
          await box.fill(fragment);
          await page.waitForFunction((f) => {
            const rows = [...document.querySelectorAll('[data-testid="user-row"]')];
            return document.querySelector('[aria-busy="true"]') === null && rows.length > 0
              && rows.every((r) => (r.textContent ?? '').toLowerCase().includes(f.toLowerCase()));
          }, fragment, { timeout: 60_000 });
        }));
        await box.fill('');
        const first = await settledRows(page);
        next.push(await timed(async () => {
          await page.getByRole('button', { name: 'Next page' }).click();
          await page.getByTestId('users-page-number').filter({ hasText: 'Page 2' }).waitFor({ timeout: 60_000 });
          await page.waitForFunction((id) => document.querySelector('[aria-busy="true"]') === null
            && document.querySelector('[data-testid="user-row"]')?.getAttribute('data-user-id') !== id, first, { timeout: 60_000 });
        }));
        metrics.push(await timed(async () => {
          await nav(page, 'Metrics');
          await page.getByTestId('metrics-total-users').waitFor({ timeout: 60_000 });
        }));
      }
      return Object.entries(samples).map(([name, t]) => {
        const sorted = [...t].sort((a, b) => a - b);
        return { name, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted[sorted.length - 1]!, n: sorted.length };
      });
    },
    async close() { await browser.close(); },
  };
}

async function signIn(page: Page, owner: { email: string; password: string; internalKey: string }) {
  // A production service does not hand its internal project's key to the console: the owner pastes it.
  await page.getByLabel('Publishable client key of the internal project').fill(owner.internalKey);
  await page.getByRole('button', { name: 'Continue to sign in' }).click();
  await page.getByRole('button', { name: 'Sign In', exact: true }).or(page.getByRole('tab', { name: 'Password' })).first().waitFor();
  const passwordTab = page.getByRole('tab', { name: 'Password' });
  if (await passwordTab.count()) await passwordTab.click();
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(owner.email);
  await page.getByLabel('Password', { exact: true }).fill(owner.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function nav(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Project navigation' }).getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 60_000 });
}

/** Waits until the Users table shows a settled page; returns its first row's user id. */
async function settledRows(page: Page): Promise<string> {
  await page.getByTestId('user-row').first().waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector('[aria-busy="true"]') === null, undefined, { timeout: 60_000 });
  return (await page.getByTestId('user-row').first().getAttribute('data-user-id'))!;
}
