// Emails: add an address, verify it from the mail the SMTP server received, make it primary, use it for
// sign-in and sign in with it; the last sign-in email cannot be removed (disabled, with its tooltip).
import { describe, expect, test } from 'bun:test';
import { extractCodeLink, mailTo, screenshot, setupBrowserSuite, uniqueEmail } from '../support/browser';
import { openSettings, settingsProject, signInWithPassword, signedInUser, openPage } from './support';

const { svc } = await setupBrowserSuite();
const project = await settingsProject(svc);

const row = (page: import('playwright-core').Page, email: string) => page.getByRole('row').filter({ hasText: email });

describe('account settings: emails', () => {
  test('add, verify from the mail, make primary, use for sign-in, then sign in with it', async () => {
    const { context, page, user } = await signedInUser(svc, project);
    const second = uniqueEmail('second');
    await openSettings(page, 'auth', 'Emails & Auth');
    await page.getByRole('button', { name: 'Add an email' }).click();

    // The form's own checks first.
    const input = page.getByRole('textbox', { name: 'New email address' });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Email is required').waitFor();
    await input.fill('not an email');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Please enter a valid email address').waitFor();
    await input.fill(user.email);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Email already exists').waitFor();

    const since = Date.now();
    await input.fill(second);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await row(page, second).getByText('Unverified').filter({ visible: true }).waitFor();
    await screenshot(page, 'settings-emails-added');

    // The verification mail went out by itself.
    const mail = await mailTo(svc, second, { since });
    const link = extractCodeLink(mail)!;
    await page.goto(link);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Your email has been verified!' }).waitFor();

    await openSettings(page, 'auth', 'Emails & Auth');
    await row(page, second).waitFor();
    expect(await row(page, second).getByText('Unverified').count()).toBe(0);
    await row(page, second).getByRole('button', { name: `Actions for ${second}` }).click();
    await page.getByRole('menuitem', { name: 'Set as primary' }).click();
    await row(page, second).getByText('Primary').filter({ visible: true }).waitFor();
    // Primary rows come first.
    await expect(page.getByRole('row').nth(1).textContent()).resolves.toContain(second);

    await row(page, second).getByRole('button', { name: `Actions for ${second}` }).click();
    await page.getByRole('menuitem', { name: 'Use for sign-in' }).click();
    await row(page, second).getByText('Used for sign-in').filter({ visible: true }).waitFor();
    await context.close();

    const fresh = await openPage(svc, { project });
    await signInWithPassword(fresh.page, second, user.password);
    await expect(fresh.page.getByTestId('signed-in-as').textContent()).resolves.toContain(second);
    await fresh.context.close();
  }, 240_000);

  test('the last sign-in email: Remove and Stop using are disabled with their tooltip', async () => {
    const { context, page, user } = await signedInUser(svc, project);
    await openSettings(page, 'auth', 'Emails & Auth');
    await row(page, user.email).getByRole('button', { name: `Actions for ${user.email}` }).click();
    const remove = page.getByRole('menuitem', { name: 'Remove' });
    await expect(remove.isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('menuitem', { name: 'Stop using for sign-in' }).isDisabled()).resolves.toBe(true);
    await remove.hover({ force: true });
    await page.getByRole('tooltip', { name: 'You can not remove your last sign-in email' }).or(page.getByText('You can not remove your last sign-in email')).first().waitFor();
    await screenshot(page, 'settings-emails-last-sign-in-tooltip');
    await context.close();
  }, 240_000);
});
