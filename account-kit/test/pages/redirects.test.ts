// Where people end up: back to the protected page they wanted, never to a foreign site, the "already signed in"
// cards, the handler's aliases and its "Page does not exist".
import { describe, expect, test } from 'bun:test';
import { newProject, openDemo, screenshot, setupBrowserSuite, signInWithPassword, signUp, signedInAs } from '../support/browser';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });

describe('after_auth_return_to', () => {
  test('a protected page sends the person to sign in and, once signed in, back to that page', async () => {
    const user = await signUp(project);
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/protected?tab=2');
    await page.waitForURL((u) => u.pathname === '/handler/sign-in');
    expect(new URL(page.url()).searchParams.get('after_auth_return_to')).toBe('/protected?tab=2');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/protected');
    expect(new URL(page.url()).search).toBe('?tab=2');
    await expect(page.getByTestId('protected-user').textContent()).resolves.toBe(user.email);
    await context.close();
  });

  test('the return target survives the way to sign-up and back', async () => {
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/protected');
    await page.waitForURL((u) => u.pathname === '/handler/sign-in');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL((u) => u.pathname === '/handler/sign-up');
    expect(new URL(page.url()).searchParams.get('after_auth_return_to')).toBe('/protected');
    const email = `ret-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('return-to-pass-1');
    await page.getByLabel('Repeat Password').fill('return-to-pass-1');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL((u) => u.pathname === '/protected');
    await expect(page.getByTestId('protected-user').textContent()).resolves.toBe(email);
    await context.close();
  });

  test('an absolute return target is refused: "Redirect URL … is not trusted; should be relative."', async () => {
    const user = await signUp(project);
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/sign-in?after_auth_return_to=' + encodeURIComponent('https://evil.example/steal'));
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('alert').getByText('Redirect URL https://evil.example/steal is not trusted; should be relative.').waitFor();
    await page.getByRole('heading', { name: 'You are already signed in' }).waitFor();
    expect(new URL(page.url()).origin).toBe(svc.url);
    expect(new URL(page.url()).pathname).toBe('/handler/sign-in');
    await screenshot(page, 'untrusted-redirect');
    // A protocol-relative target is just as foreign.
    await page.goto('/handler/sign-in?after_auth_return_to=' + encodeURIComponent('//evil.example/x'));
    await page.getByRole('alert').getByText('Redirect URL //evil.example/x is not trusted; should be relative.').waitFor();
    expect(new URL(page.url()).origin).toBe(svc.url);
    await context.close();
  });
});

describe('already signed in', () => {
  test('sign-in and sign-up send a signed-in person home; forgot-password and the magic link say they are signed in', async () => {
    const user = await signUp(project);
    const { context, page } = await openDemo(svc, { project });
    await signInWithPassword(page, user.email, user.password);
    expect(await signedInAs(page)).toContain(user.email);
    await page.goto('/handler/sign-in');
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto('/handler/sign-up');
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto('/handler/forgot-password');
    await page.getByRole('heading', { name: 'You are already signed in' }).waitFor();
    await page.goto('/handler/magic-link-callback?code=' + 'd'.repeat(45));
    await page.getByRole('heading', { name: 'You are already signed in' }).waitFor();
    await page.getByRole('button', { name: 'Go home' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });
});

describe('handler paths', () => {
  test('aliases go to the canonical page with the same query', async () => {
    const { context, page } = await openDemo(svc, { project });
    for (const [alias, canonical] of [['login', 'sign-in'], ['register', 'sign-up'], ['signin', 'sign-in'], ['forgotpassword', 'forgot-password']]) {
      await page.goto(`/handler/${alias}?after_auth_return_to=%2Fprotected`);
      await page.waitForURL((u) => u.pathname === `/handler/${canonical}`);
      expect(new URL(page.url()).searchParams.get('after_auth_return_to')).toBe('/protected');
    }
    await page.getByRole('heading', { name: 'Reset Your Password' }).waitFor();
    await context.close();
  });

  test('an unknown page says "Page does not exist" and leads home', async () => {
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/no-such-page');
    await page.getByRole('heading', { name: 'Page does not exist' }).waitFor();
    await page.getByText('The page you are looking for could not be found. Please check the URL and try again.').waitFor();
    // Matching is exact: a differently cased alias is not an alias.
    await page.goto('/handler/LOGIN');
    await page.getByRole('heading', { name: 'Page does not exist' }).waitFor();
    await page.getByRole('button', { name: 'Go to Home' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });
});
