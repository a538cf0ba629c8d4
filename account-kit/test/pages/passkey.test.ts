// Signing in with a passkey: Chromium's virtual authenticator stands in for the person's device. The passkey is
// registered through the app the provider exposes (globalThis.__GATEHOUSE__), as the settings page would.
import { describe, expect, test } from 'bun:test';
import { addVirtualAuthenticator, newProject, openDemo, screenshot, setupBrowserSuite, signInWithPassword, signUp, signedInAs } from '../support/browser';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false, passkey_enabled: true } });

describe('passkey sign-in', () => {
  test('register a passkey while signed in, sign out, sign in again with the passkey button', async () => {
    const user = await signUp(project);
    const { context, page } = await openDemo(svc, { project });
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    await signInWithPassword(page, user.email, user.password);
    expect(await signedInAs(page)).toContain(user.email);

    const registered = await page.evaluate(async () => {
      const { app } = (globalThis as any).__GATEHOUSE__;
      const me = await app.getUser({ or: 'throw' });
      const result = await me.registerPasskey();
      return result.status;
    });
    expect(registered).toBe('ok');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);

    await page.getByRole('button', { name: 'Open account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByText('You are not signed in.').waitFor();

    await page.goto('/handler/sign-in');
    await screenshot(page, 'sign-in-with-passkey');
    await page.getByRole('button', { name: 'Sign in with Passkey' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(await signedInAs(page)).toContain(user.email);
    await context.close();
  });

  test('a passkey the service does not know is refused with a message', async () => {
    const { context, page } = await openDemo(svc, { project });
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    // A resident credential for this site that was never registered with the service.
    const key = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']);
    const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', key.privateKey)).toString('base64');
    await cdp.send('WebAuthn.addCredential', {
      authenticatorId,
      credential: { credentialId: Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64'), isResidentCredential: true, rpId: 'localhost', privateKey: pkcs8, userHandle: Buffer.from('stranger').toString('base64'), signCount: 0 },
    });
    await page.goto('/handler/sign-in');
    await page.getByRole('button', { name: 'Sign in with Passkey' }).click();
    await page.getByRole('alert').getByText('Failed to sign in with passkey').waitFor();
    expect(new URL(page.url()).pathname).toBe('/handler/sign-in');
    await context.close();
  });
});
