// Project permissions (held by a user, not in a team): an owner defines them (one containing another), deletes one,
// chooses the permissions every new user gets, and grants and revokes them on a user's page.
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { adminApi, serverApi } from '../../service/test/support/service';
import {
  checkLooks, checkLooksOnPhone, createAllKeys, createProject, notification, openConsole, openScreen, openUserPage, selectOption, setupConsoleSuite, signUpOwner, uniqueEmail, type ShownKeys,
} from './support/console';

const { svc } = await setupConsoleSuite();
let context: BrowserContext;
let page: Page;
let projectId: string;
let keys: ShownKeys;
const admin = () => adminApi(svc.url, projectId, keys.superSecretAdminKey);
const server = () => serverApi(svc.url, projectId, keys.secretServerKey);

afterAll(async () => context?.close());

/** A MultiSelect stays open after a pick: Escape closes it. */
async function pick(label: string, option: string) {
  await selectOption(page, label, option);
  await page.keyboard.press('Escape');
}

async function createPermission(id: string, description: string, contains: string[] = []) {
  await page.getByRole('button', { name: 'Create permission' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a project permission' });
  await dialog.getByLabel('Permission ID').fill(id);
  await dialog.getByLabel('Description').fill(description);
  for (const c of contains) await pick('Contains', c);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await notification(page, 'Permission saved');
  await page.getByTestId(`permission-${id}`).waitFor();
}

describe('project permissions', () => {
  test('setup: an owner with a project and its keys', async () => {
    ({ context, page } = await openConsole(svc, { width: 1280 }));
    await signUpOwner(page);
    projectId = await createProject(page, 'Reports');
    keys = await createAllKeys(page, 'Tests');
  });

  test('define read_reports, then manage_reports containing it (a tree); delete one; the new users\' defaults', async () => {
    await openScreen(page, 'Project permissions');
    await createPermission('read_reports', 'Read the reports');
    await createPermission('manage_reports', 'Manage the reports', ['read_reports']);
    await createPermission('scratch', 'Soon deleted');
    expect(await page.getByTestId('permission-manage_reports').getByRole('listitem').allTextContents()).toEqual(['read_reports']);
    // Team permissions are another list: the project's definitions do not show there.
    const teamDefs = (await admin().get('/team-permission-definitions')).body.items.map((d: any) => d.id);
    expect(teamDefs).not.toContain('manage_reports');
    const defs = (await admin().get('/project-permission-definitions')).body.items;
    expect(defs.find((d: any) => d.id === 'manage_reports')).toMatchObject({ description: 'Manage the reports', contained_permission_ids: ['read_reports'] });

    await page.getByRole('button', { name: 'Delete scratch' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await notification(page, 'Permission deleted');
    await page.getByTestId('permission-scratch').waitFor({ state: 'detached' });
    expect((await admin().get('/project-permission-definitions')).body.items.map((d: any) => d.id)).not.toContain('scratch');

    await pick('Granted to every new user', 'read_reports');
    await page.getByRole('button', { name: 'Save' }).click();
    await notification(page, 'Default permissions saved');
    expect((await admin().get('/projects/current')).body.config.user_default_permissions.map((p: any) => p.id)).toEqual(['read_reports']);
    await checkLooks(page, 'project-permissions', (p) => p.getByTestId('permission-manage_reports').waitFor());
    await checkLooksOnPhone(page, 'project-permissions', (p) => p.getByTestId('permission-manage_reports').waitFor());
  });

  test('a user\'s page grants manage_reports (read_reports shown through it) and revokes it', async () => {
    const email = uniqueEmail('analyst');
    const user = (await server().post('/users', { primary_email: email, primary_email_auth_enabled: true })).body;
    await openUserPage(page, email);
    const section = page.getByRole('region', { name: 'Project permissions' });
    // The default permission, granted when the user was created.
    await section.getByTestId('member-permission-read_reports').getByText('Granted').filter({ visible: true }).waitFor();

    await section.getByLabel('Grant a permission').click();
    await page.getByRole('option', { name: 'manage_reports', exact: true }).click();
    await section.getByRole('button', { name: 'Grant', exact: true }).click();
    await notification(page, 'manage_reports granted');
    await section.getByTestId('member-permission-manage_reports').waitFor();
    await section.getByTestId('member-permission-read_reports').getByText('through manage_reports').filter({ visible: true }).waitFor();
    const direct = (await server().get(`/project-permissions?user_id=${user.id}&recursive=false`)).body.items.map((p: any) => p.id);
    expect(direct.sort()).toEqual(['manage_reports', 'read_reports']);
    await checkLooks(page, 'user-project-permissions', (p) => p.getByRole('region', { name: 'Project permissions' }).getByTestId('member-permission-manage_reports').waitFor());
    await checkLooksOnPhone(page, 'user-project-permissions', (p) => p.getByRole('region', { name: 'Project permissions' }).getByTestId('member-permission-manage_reports').waitFor());

    await section.getByRole('button', { name: 'Revoke manage_reports' }).click();
    await notification(page, 'manage_reports revoked');
    await section.getByTestId('member-permission-manage_reports').waitFor({ state: 'detached' });
    expect((await server().get(`/project-permissions?user_id=${user.id}&recursive=false`)).body.items.map((p: any) => p.id)).toEqual(['read_reports']);
  });
});
