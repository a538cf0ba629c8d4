// Signing in with the keyboard alone: focus starts in the email field, Tab walks the form in order, Enter
// submits, and a field in error receives the focus.
import { describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { newProject, openDemo, setupBrowserSuite, signUp, signedInAs } from '../support/browser';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });

/** What has the focus, described as a person would: its accessible name or label. */
const focused = (page: Page) => page.evaluate(() => {
  const el = document.activeElement as HTMLElement | null;
  if (!el) return null;
  const input = el as HTMLInputElement;
  const label = input.labels?.[0]?.textContent?.replace('*', '').trim();
  return el.getAttribute('aria-label') ?? label ?? el.textContent?.trim() ?? el.tagName;
});

describe('keyboard only', () => {
  test('focus on the first field at load, empty submit focuses the email field, wrong password focuses the password, Tab and Enter sign in', async () => {
    const user = await signUp(project);
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/sign-in');
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'INPUT');
    expect(await focused(page)).toBe('Email');

    // Submitting the empty form with Enter: the first field in error gets the focus.
    await page.keyboard.press('Enter');
    await page.getByText('Please enter your email').waitFor();
    expect(await focused(page)).toBe('Email');

    await page.keyboard.type(user.email);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Password');
    await page.keyboard.type('not-the-password');
    await page.keyboard.press('Enter');
    await page.getByText('Wrong e-mail or password.').waitFor();
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.type === 'password');

    // Clear the field and type the right password, then Tab through the rest of the form to the button.
    await page.keyboard.press('Control+A');
    await page.keyboard.type(user.password);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Show password');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Forgot password?');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Sign In');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/');
    expect(await signedInAs(page)).toContain(user.email);

    // The account menu opens and signs out by keyboard too.
    await page.getByRole('button', { name: 'Open account menu' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    for (let i = 0; i < 5 && (await focused(page)) !== 'Sign out'; i++) await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('Sign out');
    await page.keyboard.press('Enter');
    await page.getByText('You are not signed in.').waitFor();
    await context.close();
  });
});
