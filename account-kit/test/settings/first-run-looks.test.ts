// The screens issue 25 changed, in every look (1280 and 390 px, light and dark; axe, nothing sticking out): the
// team page with its members and invitations, the sessions list, and the MFA dialog showing a wrong code.
// (The demo home is looked at in pages/demo-home.test.ts.)
import { describe, expect, test } from 'bun:test';
import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import { checkEveryLook, newProject, screenshot, setupBrowserSuite, signUp } from '../support/browser';
import { openPage, openSettings, settingsProject, signInWithPassword, signedInUser } from './support';

const { svc } = await setupBrowserSuite();

describe('issue 25 screens in every look', () => {
  test('the team page: members (named, by email, you) with their permissions, an invitation', async () => {
    const project = await settingsProject(svc);
    const owner = await signedInUser(svc, project);
    const token = (await project.client.post('/auth/password/sign-in', { email: owner.user.email, password: owner.user.password })).body.access_token as string;
    const team = (await project.client.post('/teams', { display_name: 'Looks Crew', creator_user_id: 'me' }, { accessToken: token })).body;
    const named = await signUp(project);
    const unnamed = await signUp(project);
    for (const u of [named, unnamed]) expect((await project.server.post(`/team-memberships/${team.id}/${u.userId}`, {})).status).toBe(201);
    await project.server.patch(`/users/${named.userId}`, { display_name: 'Grace Hopper' });
    await project.client.post('/team-invitations/send-code', { email: 'invitee@example.com', team_id: team.id, callback_url: `${svc.url}/handler/team-invitation` }, { accessToken: token });
    await checkEveryLook(owner.page, 'first-run-team-page', async (p) => {
      await openSettings(p, `team-${team.id}`, 'Looks Crew');
      await p.getByTestId('team-member-row').nth(2).waitFor();
      await p.getByTestId('invitation-row').first().waitFor();
    });
    await owner.context.close();
  }, 240_000);

  test('the sessions list with two sessions', async () => {
    const project = await settingsProject(svc);
    const a = await signedInUser(svc, project);
    const b = await openPage(svc, { project });
    await signInWithPassword(b.page, a.user.email, a.user.password);
    await checkEveryLook(a.page, 'first-run-sessions', async (p) => {
      await openSettings(p, 'sessions', 'Active Sessions');
      await p.getByTestId('session-row').nth(1).waitFor();
    });
    await a.context.close();
    await b.context.close();
  }, 240_000);

  test('the MFA dialog showing a wrong code', async () => {
    const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });
    const user = await signUp(project);
    const secret = new OTPAuth.Secret({ size: 20 });
    const totp = new OTPAuth.TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 });
    await project.client.patch('/users/me', { totp_secret_base64: Buffer.from(secret.bytes).toString('base64') }, { accessToken: user.accessToken });
    const { context, page } = await openPage(svc, { project });
    await checkEveryLook(page, 'first-run-mfa-wrong-code', async (p: Page) => {
      await p.goto('/handler/sign-in');
      await p.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
      await p.getByLabel('Password', { exact: true }).fill(user.password);
      await p.getByRole('button', { name: 'Sign In', exact: true }).click();
      await p.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Authenticator code 1');
      // Digit by digit, each once the cursor has moved on, as a person watches it: on a busy machine the boxes move
      // the focus a moment after each key, and keys typed faster went nowhere.
      // The dialog focuses its first box when its opening transition ends: keys typed before then lost the focus
      // back to the first box. Wait for it to be fully shown, as a person does.
      await p.waitForFunction(() => {
        const dialog = document.querySelector('[role="dialog"]');
        for (let el: Element | null = dialog; el; el = el.parentElement) if (Number(getComputedStyle(el).opacity) < 1) return false;
        return !!dialog && document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity);
      });
      await p.waitForTimeout(100);
      await p.getByRole('textbox', { name: 'Authenticator code 1' }).focus();
      const wrong = totp.generate() === '000000' ? '111111' : '000000';
      for (let i = 0; i < wrong.length; i++) {
        await p.keyboard.type(wrong[i]!);
        if (i < wrong.length - 1) await p.waitForFunction((next) => document.activeElement?.getAttribute('aria-label') === `Authenticator code ${next}`, i + 2, { timeout: 10_000 }).catch(async (err) => {
          await screenshot(p, 'failed-first-run-mfa-typing');
          throw new Error(`${err.message}; digit ${i + 1}, focus on ${await p.evaluate(() => document.activeElement?.outerHTML.slice(0, 200))}`);
        });
      }
      await p.getByRole('dialog', { name: 'Two-factor authentication' }).getByRole('alert').waitFor().catch(async (err) => {
        await screenshot(p, 'failed-first-run-mfa');
        throw err;
      });
    });
    await context.close();
  }, 240_000);
});
