// The API reference page (issue 15 §3) in Debian's Chromium: /api/v1/docs loads Swagger UI from the service itself
// (no request leaves the machine), lists sign-up, and its try-it-out sends a real sign-up to the running service.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../../account-kit/test/support/browser';
import { DEV_KEYS, clientApi, sharedService, uniqueEmail, type SharedService } from './support/service';

setDefaultTimeout(180_000);
let svc: SharedService;
let browser: Browser;
beforeAll(async () => {
  [svc, browser] = await Promise.all([sharedService(), chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS })]);
}, 120_000);
afterAll(async () => { await browser?.close(); });

test('the docs page finds sign-up and signs a user up from the page', async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  // Swagger UI renders the whole document in the page: slow on a busy 2-core machine.
  page.setDefaultTimeout(60_000);
  const foreign: string[] = [];
  page.on('request', (r) => { if (!r.url().startsWith(svc.url)) foreign.push(r.url()); });
  try {
    await page.goto(`${svc.url}/api/v1/docs`);
    // Search: Swagger UI's filter keeps the matching tag; open it (it may re-render under the click), then sign-up.
    await page.locator('#operations-tag-Users').waitFor();
    await page.locator('.operation-filter-input').fill('Password');
    await page.waitForFunction(() => !document.querySelector('#operations-tag-Users') && document.querySelector('#operations-tag-Password'));
    const signUp = page.locator('#operations-Password-postAuthPasswordSignUp');
    for (let i = 0; i < 5 && !(await signUp.isVisible()); i++) {
      await page.locator('#operations-tag-Password').click();
      await signUp.waitFor({ timeout: 3000 }).catch(() => {});
    }
    await signUp.locator('.opblock-summary').first().click();
    await signUp.locator('.try-out__btn').waitFor();
    await expect(signUp.locator('.opblock-summary-path').first().textContent()).resolves.toContain('/auth/password/sign-up');

    // Authorize with the development publishable client key.
    await page.locator('.auth-wrapper .authorize').first().click();
    const scheme = page.locator('.auth-container').filter({ hasText: 'publishableClientKey' });
    await scheme.locator('input').fill(DEV_KEYS.publishableClientKey);
    await scheme.locator('button.authorize').click();
    await page.locator('.btn-done, button.close-modal').first().click();

    await signUp.locator('.try-out__btn').click();
    await signUp.locator('tr[data-param-name="x-stack-project-id"] input').fill(DEV_KEYS.projectId);
    await signUp.locator('tr[data-param-name="x-stack-access-type"] select').selectOption('client');
    const email = uniqueEmail('docs');
    await signUp.locator('textarea.body-param__text').fill(JSON.stringify({ email, password: 'correct-horse-battery' }));
    await signUp.locator('.execute').click();

    const live = signUp.locator('.live-responses-table');
    const answer = live.locator('tr.response').first();
    await expect(answer.locator('.response-col_status').textContent({ timeout: 30_000 })).resolves.toContain('200');
    await expect(answer.textContent()).resolves.toContain('access_token');
    // The user exists: sign in over the API with the same credentials.
    const signIn = await clientApi(svc.url, DEV_KEYS.projectId, DEV_KEYS.publishableClientKey).post('/auth/password/sign-in', { email, password: 'correct-horse-battery' });
    expect(signIn.status).toBe(200);
    expect(foreign).toEqual([]);
  } catch (err) {
    await page.screenshot({ path: '/tmp/gh/docs-failure.png', fullPage: false }).catch(() => {});
    throw err;
  } finally {
    await context.close();
  }
});
