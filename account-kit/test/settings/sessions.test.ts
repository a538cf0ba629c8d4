// Active Sessions: two browser contexts give two sessions; the current one cannot be revoked (tooltip), the
// other one is revoked from its menu; then "Revoke All Other Sessions" with its confirm step.
import { describe, expect, test } from 'bun:test';
import { screenshot, setupBrowserSuite } from '../support/browser';
import { openSettings, settingsProject, signInWithPassword, signedInUser, openPage } from './support';

const { svc } = await setupBrowserSuite();
const project = await settingsProject(svc);

async function serverSessionCount(userId: string) {
  const res = await project.server.get(`/auth/sessions?user_id=${userId}`);
  expect(res.status).toBe(200);
  return (res.body.items as unknown[]).length;
}

describe('account settings: active sessions', () => {
  test('see two sessions, revoke the other; then revoke all other sessions', async () => {
    const a = await signedInUser(svc, project);
    const b = await openPage(svc, { project });
    await signInWithPassword(b.page, a.user.email, a.user.password);

    await openSettings(a.page, 'sessions', 'Active Sessions');
    const rows = a.page.getByTestId('session-row');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    await a.page.getByText("These are devices where you're currently logged in. You can revoke access to end a session.").waitFor();
    const current = rows.filter({ hasText: 'Current Session' });
    const other = rows.filter({ hasText: 'Other Session' });
    await expect(current.textContent()).resolves.toContain('just now');
    await expect(current.textContent()).resolves.toContain('Signed in');
    await expect(current.textContent()).resolves.toContain('Unknown');
    await screenshot(a.page, 'settings-sessions-two');
    // Each row says the browser and system of its sign-in (the recorded user agent, read by ua-parser-js), its IP,
    // and its action button is named after it (issue 25).
    for (const row of [current, other]) {
      const text = (await row.textContent())!;
      expect(text).toMatch(/Chrome Headless \d+ on Linux/);
      expect(text).toMatch(/127\.0\.0\.1|::1/);
    }
    const names = await rows.getByRole('button', { name: /^Actions for / }).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^Actions for Chrome Headless \d+ on Linux, signed in /);
    expect(new Set(names).size).toBe(2);

    await current.getByRole('button', { name: /^Actions for / }).click();
    const revokeCurrent = a.page.getByRole('menuitem', { name: 'Revoke' });
    await expect(revokeCurrent.isDisabled()).resolves.toBe(true);
    await revokeCurrent.hover({ force: true });
    await a.page.getByText('You cannot revoke your current session').waitFor();
    // Close that menu (Escape, or the same button again) before opening the other row's.
    await a.page.keyboard.press('Escape');
    if (!(await a.page.getByRole('menu').waitFor({ state: 'detached', timeout: 2000 }).then(() => true, () => false))) {
      await current.getByRole('button', { name: /^Actions for / }).click();
      await a.page.getByRole('menu').waitFor({ state: 'detached' });
    }

    await other.getByRole('button', { name: /^Actions for / }).click();
    await a.page.getByRole('menuitem', { name: 'Revoke' }).click();
    await other.waitFor({ state: 'detached' });
    expect(await serverSessionCount(a.user.userId)).toBe(1);
    expect(await a.page.getByRole('button', { name: 'Revoke All Other Sessions' }).count()).toBe(0);

    // Two more devices, then revoke everything but this one.
    const c = await openPage(svc, { project });
    await signInWithPassword(c.page, a.user.email, a.user.password);
    const d = await openPage(svc, { project });
    await signInWithPassword(d.page, a.user.email, a.user.password);
    await openSettings(a.page, 'sessions', 'Active Sessions');
    await rows.nth(2).waitFor();
    await a.page.getByRole('button', { name: 'Revoke All Other Sessions' }).click();
    await a.page.getByRole('button', { name: 'Cancel' }).click();
    expect(await rows.count()).toBe(3);
    await a.page.getByRole('button', { name: 'Revoke All Other Sessions' }).click();
    await a.page.getByRole('button', { name: 'Confirm' }).click();
    await rows.nth(1).waitFor({ state: 'detached' });
    expect(await rows.count()).toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('Current Session');
    expect(await serverSessionCount(a.user.userId)).toBe(1);
    for (const x of [a, b, c, d]) await x.context.close();
  }, 240_000);
});
