// Account settings, "Connected apps" (issue 27): the applications a person let sign them in through the project's
// OpenID provider are listed with what they may see, and revoking one ends its tokens. Chromium, real service,
// openid-client as the application.
import { describe, expect, test } from 'bun:test';
import { checkEveryLook, setupBrowserSuite } from '../support/browser';
import { openPage, openSettings, settingsProject, signInWithPassword, signUp } from './support';
import { discover, oauthErrorOf, oidc, registerClient, signInThroughConsentApi } from '../../../service/test/support/oidc-relying-party';

const { svc } = await setupBrowserSuite();
const project = await settingsProject(svc);
const REDIRECT = 'https://reader.example.com/callback';
const reader = await registerClient(project, { display_name: 'Feed Reader', client_type: 'confidential', redirect_uris: [REDIRECT] });
const config = await discover(svc, project.id, reader.clientId, reader.clientSecret);

describe('account settings: connected apps', () => {
  test('an application signed in with the account is listed with its permissions and revoked after a confirmation', async () => {
    const user = await signUp(project);
    const tokens = await signInThroughConsentApi(svc, project, config, user.accessToken, REDIRECT, 'openid email offline_access');
    const { context, page } = await openPage(svc, { project });
    await signInWithPassword(page, user.email, user.password);
    await openSettings(page, 'auth', 'Emails & Auth');
    const row = page.getByTestId(`connected-app-${reader.clientId}`);
    await row.getByText('Feed Reader').waitFor();
    await row.getByText('Know who you are (your account id) · See your email address · Stay signed in when you are not using it').waitFor();
    await checkEveryLook(page, 'settings-connected-apps', async (p) => {
      await openSettings(p, 'auth', 'Emails & Auth');
      await p.getByTestId(`connected-app-${reader.clientId}`).waitFor();
    });

    await page.getByRole('button', { name: 'Revoke Feed Reader' }).click();
    await page.getByText('Revoke access for Feed Reader? It is signed out and must ask you again.').waitFor();
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByText('Access for Feed Reader revoked').waitFor();
    expect(await page.getByTestId(`connected-app-${reader.clientId}`).count()).toBe(0);
    expect(await oauthErrorOf(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await context.close();
  });

  test('a person who signed in to no application sees no such section', async () => {
    const user = await signUp(project);
    const { context, page } = await openPage(svc, { project });
    await signInWithPassword(page, user.email, user.password);
    await openSettings(page, 'auth', 'Emails & Auth');
    await page.getByRole('heading', { name: 'Emails', exact: true }).first().waitFor();
    expect(await page.getByRole('heading', { name: 'Connected apps' }).count()).toBe(0);
    await context.close();
  });
});
