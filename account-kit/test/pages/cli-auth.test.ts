// A command-line login: the CLI starts it (POST /auth/cli) and polls; the person confirms it in the browser.
import { describe, expect, test } from 'bun:test';
import { newProject, openDemo, screenshot, setupBrowserSuite, signUp } from '../support/browser';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, { config: { credential_enabled: true, magic_link_enabled: false } });

async function startCliLogin() {
  const res = await project.client.post('/auth/cli', {});
  expect(res.status).toBe(200);
  return res.body as { polling_code: string; login_code: string };
}
const poll = async (pollingCode: string) => (await project.client.post('/auth/cli/poll', { polling_code: pollingCode })).body;

describe('CLI confirmation page', () => {
  test('signed out: sign in first, come back, authorize; the CLI then receives a working refresh token', async () => {
    const user = await signUp(project);
    const cli = await startCliLogin();
    expect((await poll(cli.polling_code)).status).toBe('waiting');

    const { context, page } = await openDemo(svc, { project });
    await page.goto(`/handler/cli-auth-confirm?login_code=${cli.login_code}`);
    await page.waitForURL((u) => u.pathname === '/handler/sign-in');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();

    await page.getByRole('heading', { name: 'Authorize CLI Application' }).waitFor();
    await page.getByText('A command line application is requesting access to your account.', { exact: false }).waitFor();
    await screenshot(page, 'cli-auth-confirm');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByRole('heading', { name: 'CLI Authorization Successful' }).waitFor();

    const done = await poll(cli.polling_code);
    expect(done.status).toBe('success');
    const refreshed = await project.client.post('/auth/sessions/current/refresh', {}, { refreshToken: done.refresh_token });
    expect(refreshed.status).toBe(200);
    const me = await project.client.get('/users/me', { accessToken: refreshed.body.access_token });
    expect(me.body.primary_email).toBe(user.email);
    expect((await poll(cli.polling_code)).status).toBe('used');
    await context.close();
  });

  test('without a login code the authorization fails with "Missing login code in URL parameters"', async () => {
    const user = await signUp(project);
    const { context, page } = await openDemo(svc, { project });
    await page.goto('/handler/sign-in');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto('/handler/cli-auth-confirm');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByRole('heading', { name: 'Authorization Failed' }).waitFor();
    await page.getByText('Missing login code in URL parameters', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    await context.close();
  });
});
