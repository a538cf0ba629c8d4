// An owner defines team permissions (one containing another) and the defaults, grants one through the server
// API, sees a failed email in the sent list, reads the overview; a second owner sees none of it and deletes
// their own project behind a confirmation that asks for its name.
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { adminApi, clientApi, serverApi } from '../../service/test/support/service';
import {
  checkLooks, checkLooksOnPhone, createAllKeys, createProject, notification, openConsole, openScreen, screenshot, setSwitch, setupConsoleSuite, signUpOwner, uniqueEmail, type ShownKeys,
} from './support/console';

const { svc } = await setupConsoleSuite();
let context: BrowserContext;
let page: Page;
let projectId: string;
let keys: ShownKeys;
const admin = () => adminApi(svc.url, projectId, keys.superSecretAdminKey);

afterAll(async () => context?.close());

async function pick(p: Page, label: string, option: string) {
  await p.getByLabel(label, { exact: true }).first().click();
  await p.getByRole('option', { name: option, exact: true }).click();
  await p.keyboard.press('Escape');
}

describe('permissions, sent emails and overview', () => {
  test('setup: an owner with a project and its keys', async () => {
    ({ context, page } = await openConsole(svc));
    await signUpOwner(page);
    projectId = await createProject(page, 'Docs');
    keys = await createAllKeys(page, 'Tests');
  });

  test('team permissions: define read_docs, then edit_docs containing it (shown as a tree); ids checked; defaults chosen', async () => {
    await openScreen(page, 'Team permissions');
    // A new project starts with the service's default definitions (and the system permissions, read-only).
    await page.getByRole('heading', { name: 'System permissions' }).waitFor();
    expect(await page.getByText('$delete_team').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Create permission' }).click();
    let dialog = page.getByRole('dialog', { name: 'Create a team permission' });
    await dialog.getByLabel('Permission ID').fill('Read Docs');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Only lowercase letters, numbers, ":", "_" are allowed').waitFor();
    await dialog.getByLabel('Permission ID').fill('read_docs');
    await dialog.getByLabel('Description').fill('Read the documents');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await notification(page, 'Permission saved');
    await page.getByTestId('permission-read_docs').waitFor();

    await page.getByRole('button', { name: 'Create permission' }).click();
    dialog = page.getByRole('dialog', { name: 'Create a team permission' });
    await dialog.getByLabel('Permission ID').fill('edit_docs');
    await dialog.getByLabel('Description').fill('Edit the documents');
    await pick(page, 'Contains', 'read_docs');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('permission-edit_docs').waitFor();
    expect(await page.getByTestId('permission-edit_docs').getByRole('listitem').allTextContents()).toEqual(['read_docs']);

    // The same id twice: the service's known error, next to the id.
    await page.getByRole('button', { name: 'Create permission' }).click();
    dialog = page.getByRole('dialog', { name: 'Create a team permission' });
    await dialog.getByLabel('Permission ID').fill('read_docs');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(/read_docs/).filter({ hasText: /already exists/i }).waitFor();
    // The catalogue's text for the known error's code, and the code in small print.
    expect(await dialog.getByTestId('error-code').textContent()).toBe('PERMISSION_ID_ALREADY_EXISTS');
    await screenshot(page, 'team-permission-exists');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await pick(page, 'Granted to a team\'s members', 'read_docs');
    await page.getByRole('button', { name: 'Save' }).click();
    await notification(page, 'Default permissions saved');
    const config = (await admin().get('/projects/current')).body.config;
    expect(config.team_member_default_permissions.map((p: any) => p.id)).toContain('read_docs');
    const defs = (await admin().get('/team-permission-definitions')).body.items;
    expect(defs.find((d: any) => d.id === 'edit_docs')).toMatchObject({ description: 'Edit the documents', contained_permission_ids: ['read_docs'] });
    await checkLooks(page, 'team-permissions', (p) => p.getByTestId('permission-edit_docs').waitFor());
    await checkLooksOnPhone(page, 'team-permissions', (p) => p.getByTestId('permission-edit_docs').waitFor());
  });

  test('edit_docs granted through the server API gives read_docs too', async () => {
    const server = serverApi(svc.url, projectId, keys.secretServerKey);
    const user = (await server.post('/users', { primary_email: uniqueEmail('member'), primary_email_auth_enabled: true })).body;
    const team = (await server.post('/teams', { display_name: 'Writers' })).body;
    expect((await server.post(`/team-memberships/${team.id}/${user.id}`, {})).status).toBe(201);
    expect((await server.post(`/team-permissions/${team.id}/${user.id}/edit_docs`, {})).status).toBe(201);
    const list = (await server.get(`/team-permissions?team_id=${team.id}&user_id=${user.id}&recursive=true`)).body.items.map((p: any) => p.id);
    expect(list).toContain('edit_docs');
    expect(list).toContain('read_docs');
  });

  test('sent emails: a mail the SMTP server refused is listed as failed, found by address, with its error', async () => {
    await openScreen(page, 'Email server');
    await page.getByText('Your own SMTP server', { exact: true }).click();
    const box = svc.projectMailbox;
    await page.getByLabel('Host').fill(box.host);
    await page.getByLabel('Port').fill(String(box.port));
    await page.getByLabel('Username').fill('u');
    await page.getByLabel(/^Password/).fill('p');
    await page.getByLabel('Sender name').fill('Docs');
    await page.getByLabel('Sender email').fill('docs@docs.test');
    // The test mailbox offers no STARTTLS: TLS, required by default for a new server, is turned off for it.
    await page.getByLabel('Require TLS').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await notification(page, 'Email server saved');

    const good = uniqueEmail('reader');
    const bad = uniqueEmail('bounce');
    const client = clientApi(svc.url, projectId, keys.publishableClientKey);
    for (const email of [good, bad]) {
      const res = await client.post('/auth/password/sign-up', { email, password: 'a-long-password-1', verification_callback_url: `${svc.url}/handler/email-verification` });
      expect(res.status).toBe(200);
    }
    const goodMail = await box.waitForMail((m) => m.to.includes(good), 30_000);
    const liveCode = new URL(goodMail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('code')!;
    // The refused mail's attempt is logged once the worker has tried it.
    for (let i = 0; ; i++) {
      const items = (await admin().get('/internal/emails')).body.items;
      if (items.some((e: any) => e.to.includes(bad) && e.error)) break;
      if (i > 60) throw new Error('the refused email never showed up as failed');
      await Bun.sleep(500);
    }

    await openScreen(page, 'Sent emails');
    await page.getByTestId('sent-email-row').filter({ hasText: good }).waitFor();
    await checkLooks(page, 'sent-emails', (p) => p.getByTestId('sent-email-row').first().waitFor());
    await checkLooksOnPhone(page, 'sent-emails', (p) => p.getByTestId('sent-email-row').first().waitFor());
    // A delivered mail's details: who, from whom, and what it said, its link as a placeholder; no error section.
    // Back at the desktop width first: its table (with a Subject column) replaces the phone's before anything is clicked.
    await page.getByRole('columnheader', { name: 'Subject' }).waitFor();
    await page.getByTestId('sent-email-row').filter({ hasText: good }).getByRole('button', { name: /Details/ }).click();
    const detail = page.getByRole('dialog', { name: 'Email "Verify your email at Docs"' });
    await detail.waitFor();
    await detail.getByText('Docs <docs@docs.test>').waitFor().catch(async (e) => {
      await screenshot(page, 'failed-sent-email-detail');
      throw new Error(`${e.message}\n${await page.locator('body').innerText()}`);
    });
    expect(await detail.getByTestId('sent-email-error').count()).toBe(0);
    const body = page.frameLocator('[data-testid="sent-email-html"]');
    await body.getByText('[link]').first().waitFor();
    await checkLooks(page, 'sent-email-delivered', (p) => p.frameLocator('[data-testid="sent-email-html"]').getByText('[link]').first().waitFor());
    await detail.getByRole('tab', { name: 'Text' }).click();
    const text = await detail.getByTestId('sent-email-text').textContent();
    expect(text).toContain('[link]');
    expect(text).not.toContain(liveCode);
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });

    await setSwitch(page, 'Failed only', true);
    await page.getByTestId('sent-email-row').filter({ hasText: good }).waitFor({ state: 'detached' });
    const failed = page.getByTestId('sent-email-row').filter({ hasText: bad });
    expect(await failed.textContent()).toContain('Failed');
    await page.getByLabel('Filter by address').fill('no-such-address');
    await page.getByText('No email matches these filters.').waitFor();
    await page.getByLabel('Filter by address').fill(bad.slice(0, 12));
    await failed.getByRole('button', { name: /Details/ }).click();
    const error = await page.getByTestId('sent-email-error').textContent();
    expect(error).toContain('550');
    await checkLooks(page, 'sent-email-detail', (p) => p.getByTestId('sent-email-error').waitFor());
    await page.keyboard.press('Escape');
  });

  test('overview: the user count of the admin API, the project id, a publishable key made here, setup snippets', async () => {
    await openScreen(page, 'Overview', 'Docs');
    const metrics = (await admin().get('/internal/metrics')).body;
    expect(await page.getByTestId('stat-Users').textContent()).toBe(String(metrics.total_users));
    expect(metrics.total_users).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('overview-project-id').textContent()).toBe(projectId);
    await page.getByRole('button', { name: 'Create a publishable key' }).click();
    const key = (await page.getByTestId('overview-publishable-key').textContent())!;
    expect((await clientApi(svc.url, projectId, key).get('/projects/current')).status).toBe(200);
    const snippet = await page.locator('pre').first().textContent();
    expect(snippet).toContain(`baseUrl: '${svc.url}'`);
    expect(snippet).toContain(`projectId: '${projectId}'`);
    expect(snippet).toContain(key);
    await checkLooks(page, 'overview', (p) => p.getByTestId('overview-publishable-key').waitFor());
  });

  test('a second owner sees none of the first owner\'s projects; deleting their own asks for its name', async () => {
    const { context: second, page: p } = await openConsole(svc);
    await signUpOwner(p);
    await p.getByTestId('empty-state').waitFor();
    expect(await p.getByText('Docs').count()).toBe(0);
    // Not even by address: the first owner's project is not theirs.
    await p.goto(`/console/#/c/this-service/p/${projectId}/overview`);
    await p.getByTestId('screen-error').waitFor();
    await p.goto('/console/#/c/this-service');
    await p.getByRole('heading', { name: 'Projects' }).waitFor();
    const own = await createProject(p, 'Scratch');
    await p.getByRole('link', { name: 'All projects' }).click();
    // The list is read afresh when shown (a skeleton meanwhile): count its rows once they are there.
    await p.getByTestId('project-row').first().waitFor();
    expect(await p.getByTestId('project-row').count()).toBe(1);
    await p.getByRole('button', { name: 'Delete Scratch' }).click();
    const dialog = p.getByRole('dialog', { name: 'Delete project "Scratch"?' });
    const confirm = dialog.getByRole('button', { name: 'Delete' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Project name').fill('Scratc');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Project name').fill('Scratch');
    await checkLooks(p, 'project-delete', (pg) => pg.getByRole('dialog').waitFor());
    await confirm.click();
    await notification(p, 'Project "Scratch" deleted');
    await p.getByTestId('empty-state').waitFor();
    expect((await adminApi(svc.url, own, keys.superSecretAdminKey).get('/projects/current')).status).not.toBe(200);
    await second.close();
  });
});
