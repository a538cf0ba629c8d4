// Signing in with an emailed one-time code and with the magic link in the same mail; the link's wrong states.
import { describe, expect, test } from 'bun:test';
import { extractCodeLink, extractOtp, mailTo, newProject, openDemo, screenshot, setupBrowserSuite, signedInAs, uniqueEmail } from '../support/browser';
import type { Page } from 'playwright-core';

const { svc } = await setupBrowserSuite();
// Only email sign-in: the sign-in page shows the email step at once.
const project = await newProject(svc, { config: { credential_enabled: false, magic_link_enabled: true } });

async function requestCode(page: Page, email: string) {
  await page.goto('/handler/sign-in');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  const since = Date.now();
  await page.getByRole('button', { name: 'Send email' }).click();
  await page.getByText(`A sign-in email has been sent to ${email}. Enter the code or click the link in it.`).waitFor();
  return mailTo(svc, email, { since });
}

async function typeCode(page: Page, code: string) {
  await page.getByRole('textbox', { name: 'One-time code 1', exact: true }).click();
  await page.keyboard.type(code);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('email one-time code', () => {
  test('a wrong code is refused; the 6 characters from the mail sign the person in', async () => {
    const email = uniqueEmail('otp');
    const { context, page } = await openDemo(svc, { project });
    const mail = await requestCode(page, email);
    const otp = extractOtp(mail)!;
    expect(otp).toMatch(/^[0-9A-Z]{6}$/);
    await screenshot(page, 'otp-code-step');

    const wrong = otp === 'ZZZZZZ' ? 'YYYYYY' : 'ZZZZZZ';
    await typeCode(page, wrong);
    await page.getByText('Incorrect code. Please try again.').waitFor();

    await page.getByRole('textbox', { name: 'One-time code 1', exact: true }).click();
    for (let i = 0; i < 6; i++) await page.keyboard.press('Backspace');
    await typeCode(page, otp.toLowerCase());
    await page.waitForURL((u) => u.pathname === '/');
    expect(await signedInAs(page)).toContain(email);
    await context.close();
  });
});

describe('magic link', () => {
  test('the link from the mail asks, then signs in; the same link again says it was used', async () => {
    const email = uniqueEmail('link');
    const first = await openDemo(svc, { project });
    const mail = await requestCode(first.page, email);
    const link = extractCodeLink(mail)!;
    expect(new URL(link).pathname).toBe('/handler/magic-link-callback');
    await first.context.close();

    // The person opens the mail on another device: a fresh browser.
    const { context, page } = await openDemo(svc, { project });
    await page.goto(link);
    await page.getByRole('heading', { name: 'Do you want to sign in?' }).waitFor();
    await screenshot(page, 'magic-link-confirm');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(await signedInAs(page)).toContain(email);
    await context.close();

    const again = await openDemo(svc, { project });
    await again.page.goto(link);
    await again.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await again.page.getByRole('heading', { name: 'Magic Link Already Used' }).waitFor();
    await again.page.getByText('The magic link has already been used. The link can only be used once.', { exact: false }).waitFor();
    await again.context.close();
  });

  test('a link without a code, or with a made-up one, is an invalid link', async () => {
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/magic-link-callback');
    await page.getByRole('heading', { name: 'Invalid Magic Link' }).waitFor();

    await page.goto('/handler/magic-link-callback?code=' + 'a'.repeat(45));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Invalid Magic Link' }).waitFor();
    await page.getByText('Please check if you have the correct link.', { exact: false }).waitFor();
    await context.close();
  });
});
