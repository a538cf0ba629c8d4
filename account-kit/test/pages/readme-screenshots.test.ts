// The README's two screenshots: the sign-in page and the demo signed in with the account menu open. Always taken
// as test artifacts; with UPDATE_SCREENSHOTS=1 also written to docs/screenshots (committed, small PNGs).
import { describe, expect, test } from 'bun:test';
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { newProject, openDemo, screenshot, setupBrowserSuite, signInWithPassword, signUp } from '../support/browser';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, {
  displayName: 'Acme Notes',
  config: { credential_enabled: true, magic_link_enabled: true, passkey_enabled: true, oauth_providers: ['google', 'github'].map((id) => ({ id, type: 'shared', enabled: true })) },
});
const DOCS = join(import.meta.dir, '../../../docs/screenshots');

describe('README screenshots', () => {
  test('the sign-in page and the signed-in demo', async () => {
    const signedOut = await openDemo(svc, { project, width: 880, height: 700 });
    await signedOut.page.goto('/handler/sign-in');
    await signedOut.page.getByRole('button', { name: 'Sign in with GitHub' }).waitFor();
    const signIn = await screenshot(signedOut.page, 'readme-sign-in');
    await signedOut.context.close();

    const user = await signUp(project, { email: `ada-${crypto.randomUUID().slice(0, 4)}@example.com` });
    const { context, page } = await openDemo(svc, { project, width: 880, height: 420 });
    await signInWithPassword(page, user.email, user.password);
    await page.getByRole('button', { name: 'Open account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    const signedIn = await screenshot(page, 'readme-demo-signed-in');
    await context.close();

    for (const file of [signIn, signedIn]) expect(statSync(file).size).toBeLessThan(100 * 1024);
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      mkdirSync(DOCS, { recursive: true });
      copyFileSync(signIn, join(DOCS, 'sign-in.png'));
      copyFileSync(signedIn, join(DOCS, 'demo-signed-in.png'));
    }
  });
});
