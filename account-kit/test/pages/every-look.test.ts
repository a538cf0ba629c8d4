// Every page of the kit at 1280 and 390 px, light and dark: screenshots saved as artifacts (and looked at), axe-core
// without serious or critical violations, nothing sticking out sideways.
import { describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import {
  checkEveryLook, expectAccessible, extractCodeLink, mailTo, newProject, openDemo, setupBrowserSuite, signInWithPassword, signUp,
} from '../support/browser';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, {
  displayName: 'Acme Notes',
  config: { credential_enabled: true, magic_link_enabled: true, passkey_enabled: true, oauth_providers: ['google', 'github'].map((id) => ({ id, type: 'shared', enabled: true })) },
});
const passwordOnly = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });

/** Opens `path` and waits for `ready` (a heading or button name) before the look is taken. */
const at = (path: string, ready: (p: Page) => Promise<unknown>) => async (p: Page) => {
  await p.goto(path);
  await ready(p);
};
const heading = (name: string) => (p: Page) => p.getByRole('heading', { name }).waitFor();

describe('every page, every look (signed out)', () => {
  const pages: [string, string, (p: Page) => Promise<unknown>][] = [
    ['sign-in-all-methods', '/handler/sign-in', (p) => p.getByRole('button', { name: 'Sign in with GitHub' }).waitFor()],
    ['sign-up', '/handler/sign-up', (p) => p.getByRole('button', { name: 'Sign up with GitHub' }).waitFor()],
    ['forgot-password', '/handler/forgot-password', heading('Reset Your Password')],
    ['password-reset-invalid', '/handler/password-reset?code=' + 'x'.repeat(45), heading('Invalid Password Reset Link')],
    ['email-verification-confirm', '/handler/email-verification?code=' + 'x'.repeat(45), heading('Do you want to verify your email?')],
    ['email-verification-invalid', '/handler/email-verification', heading('Invalid Verification Link')],
    ['magic-link-confirm', '/handler/magic-link-callback?code=' + 'x'.repeat(45), heading('Do you want to sign in?')],
    ['sign-out', '/handler/sign-out', heading('You are not currently signed in.')],
    ['error-generic', '/handler/error?errorCode=USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION_X&message=' + encodeURIComponent('A long message that has to wrap on a phone screen without overflowing'), heading('An error occurred')],
    ['error-access-denied', '/handler/error?errorCode=OAUTH_PROVIDER_ACCESS_DENIED&message=x', heading('OAuth provider access denied')],
    ['team-invitation-sign-in', '/handler/team-invitation?code=' + 'x'.repeat(45), heading('Team invitation')],
    ['not-found', '/handler/no-such-page', heading('Page does not exist')],
    ['home-signed-out', '/', (p) => p.getByText('You are not signed in.').waitFor()],
  ];
  for (const [name, path, ready] of pages) {
    test(name, async () => {
      const { context, page } = await openDemo(svc, { project });
      await checkEveryLook(page, name, at(path, ready));
      await context.close();
    });
  }

  test('sign-up disabled card', async () => {
    const closed = await newProject(svc, { config: { sign_up_enabled: false } });
    const { context, page } = await openDemo(svc, { project: closed });
    await checkEveryLook(page, 'sign-up-disabled', at('/handler/sign-up', heading('Sign up for new users is not enabled at the moment.')));
    await context.close();
  });

  test('email code step', async () => {
    const { context, page } = await openDemo(svc, { project });
    await checkEveryLook(page, 'otp-code-step', async (p) => {
      await p.goto('/handler/sign-in');
      await p.getByRole('textbox', { name: 'Email', exact: true }).fill(`look-${crypto.randomUUID().slice(0, 8)}@example.com`);
      await p.getByRole('button', { name: 'Send email' }).click();
      await p.getByText('Enter the code from your email').waitFor();
    });
    await context.close();
  });

  test('password-reset form and the field errors of the sign-up form', async () => {
    const user = await signUp(passwordOnly);
    const { context, page } = await openDemo(svc, { project: passwordOnly });
    const since = Date.now();
    await passwordOnly.client.post('/auth/password/send-reset-code', { email: user.email, callback_url: `${svc.url}/handler/password-reset` });
    const link = extractCodeLink(await mailTo(svc, user.email, { since }))!;
    await checkEveryLook(page, 'password-reset-form', at(link, heading('Reset Your Password')));
    await checkEveryLook(page, 'sign-up-errors', async (p) => {
      await p.goto('/handler/sign-up');
      await p.getByRole('textbox', { name: 'Email', exact: true }).fill('not-an-email');
      await p.getByLabel('Password', { exact: true }).fill('short');
      await p.getByRole('button', { name: 'Sign Up' }).click();
      await p.getByText('Please enter a valid email').waitFor();
    });
    await context.close();
  });
});

describe('every page, every look (signed in)', () => {
  test('home, protected page, account menu, CLI confirmation, already signed in', async () => {
    const user = await signUp(project);
    const { context, page } = await openDemo(svc, { project });
    await signInWithPassword(page, user.email, user.password);
    await checkEveryLook(page, 'home-signed-in', at('/', (p) => p.getByTestId('signed-in-as').waitFor()));
    await checkEveryLook(page, 'protected', at('/protected', (p) => p.getByTestId('protected-user').waitFor()));
    await checkEveryLook(page, 'user-menu', async (p) => {
      await p.goto('/');
      await p.getByTestId('signed-in-as').waitFor();
      await p.getByRole('button', { name: 'Open account menu' }).click();
      await p.getByRole('menuitem', { name: 'Sign out' }).waitFor();
      // Known, upstream: Mantine 9.7.3's open Menu always renders a focusable <div role="presentation"
      // tabindex="-1"> (its initial-focus target) inside role="menu", which axe reports as aria-required-children;
      // no prop removes it. Every other rule runs on the open menu.
    }, { axeRulesOff: ['aria-required-children'] });
    await checkEveryLook(page, 'cli-auth-confirm', at('/handler/cli-auth-confirm?login_code=x', heading('Authorize CLI Application')));
    await checkEveryLook(page, 'already-signed-in', at('/handler/forgot-password', heading('You are already signed in')));
    await context.close();
  }, 300_000); // twenty looks
});

test('the TOTP dialog in both themes has no serious axe violation', async () => {
  // (The dialog's look is screenshot by mfa.test.ts; here axe checks it in light and dark.)
  const OTPAuth = await import('otpauth');
  const user = await signUp(passwordOnly);
  const secret = new OTPAuth.Secret({ size: 20 });
  await passwordOnly.client.patch('/users/me', { totp_secret_base64: Buffer.from(secret.bytes).toString('base64') }, { accessToken: user.accessToken });
  for (const colorScheme of ['light', 'dark'] as const) {
    const { context, page } = await openDemo(svc, { project: passwordOnly, colorScheme, width: 390 });
    await page.goto('/handler/sign-in');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('dialog', { name: 'Two-factor authentication' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Authenticator code 1');
    await expectAccessible(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await context.close();
  }
}, 180_000); // two sign-ins
