// The first thing a developer sees after `npm start` (issue 25): the demo at `/` is an app of the demo project,
// with every sign-in method, passkeys, teams and account deletion on; its home says what it is, links the console,
// the API reference and the account settings, and shows the signed-in person's teams; every owner sees the demo
// project in the console.
import { describe, expect, test } from 'bun:test';
import { DEMO_DEV_KEYS, DEMO_PROJECT_ID } from '../../../service/src/dev-keys';
import { clientApi } from '../../../service/test/support/service';
import { internalClient, newInternalUser } from '../../../service/test/support/projects';
import { checkEveryLook, openDemo, screenshot, setupBrowserSuite, signInWithPassword, signedInAs, uniqueEmail } from '../support/browser';

const { svc } = await setupBrowserSuite();
const demo = clientApi(svc.url, DEMO_PROJECT_ID, DEMO_DEV_KEYS.publishable_client_key);

async function demoUser() {
  const email = uniqueEmail('demo');
  const res = await demo.post('/auth/password/sign-up', { email, password: 'correct-horse-1' });
  expect(res.status).toBe(200);
  return { email, password: 'correct-horse-1', accessToken: res.body.access_token as string };
}

describe('the demo at /', () => {
  test('is an app of the demo project with every feature on, and says what it is', async () => {
    const current = await demo.get('/projects/current');
    expect(current.status).toBe(200);
    expect(current.body.config).toMatchObject({ credential_enabled: true, magic_link_enabled: true, passkey_enabled: true, client_team_creation_enabled: true, client_user_deletion_enabled: true });
    expect(current.body.config.enabled_oauth_providers.length).toBeGreaterThan(0);

    const { context, page } = await openDemo(svc);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Gatehouse demo', level: 1 }).waitFor();
    expect(await page.getByTestId('demo-intro').textContent()).toContain('A demo app built with the Gatehouse account kit');
    expect(await page.getByRole('link', { name: 'Console' }).getAttribute('href')).toBe('/console');
    expect(await page.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/api/v1/docs');
    expect(await page.getByRole('link', { name: 'Account settings' }).getAttribute('href')).toBe('/handler/account-settings');
    // Its sign-in page offers what the project has on: OAuth (the development provider), passkey, codes by email.
    await page.goto('/handler/sign-in');
    await page.getByRole('button', { name: 'Sign in with GitHub' }).waitFor();
    await page.getByRole('button', { name: /passkey/i }).first().waitFor();
    await context.close();
  });

  test('the signed-in home shows the person and their teams; a team they create gets the new-project permissions', async () => {
    const user = await demoUser();
    const { context, page } = await openDemo(svc);
    await signInWithPassword(page, user.email, user.password);
    expect(await signedInAs(page)).toContain(user.email);
    await page.getByText('You are in no team yet.').waitFor();
    const created = await demo.post('/teams', { display_name: 'Demo Crew', creator_user_id: 'me' }, { accessToken: user.accessToken });
    expect(created.status).toBe(201);
    const perms = await demo.get(`/team-permissions?team_id=${created.body.id}&user_id=me&recursive=true`, { accessToken: user.accessToken });
    expect(perms.body.items.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining(['admin', '$invite_members', '$remove_members', '$update_team']));
    await page.reload();
    const link = page.getByTestId('your-teams').getByRole('link', { name: 'Demo Crew' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/handler/account-settings#team-${created.body.id}`);
    await checkEveryLook(page, 'demo-home', async (p) => {
      await p.goto('/');
      await p.getByTestId('your-teams').waitFor();
    });
    await screenshot(page, 'demo-home-signed-in');
    await context.close();
  });

  test('every owner sees the demo project in the console, with admin access to it', async () => {
    const owner = await newInternalUser(svc);
    const listed = await internalClient(svc).get('/internal/projects', { accessToken: owner.accessToken });
    expect(listed.body.items.map((p: { id: string }) => p.id)).toContain(DEMO_PROJECT_ID);
    const res = await fetch(`${svc.url}/api/v1/projects/current`, {
      headers: { 'x-stack-project-id': DEMO_PROJECT_ID, 'x-stack-access-type': 'admin', 'x-stack-admin-access-token': owner.accessToken },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { config: { passkey_enabled: boolean } }).config.passkey_enabled).toBe(true);
  });
});
