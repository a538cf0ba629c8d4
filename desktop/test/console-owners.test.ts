// The Owners screen: the project's owners (the console accounts whose managedProjectIds list it), one removed behind
// a confirmation, and the last one kept (its Remove button off, the reason said).
import { afterAll, describe, expect, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { DEV_KEYS, serverApi } from '../../service/test/support/service';
import { newInternalUser } from '../../service/test/support/projects';
import { checkLooks, checkLooksOnPhone, createProject, notification, openConsole, openScreen, setupConsoleSuite, signUpOwner } from './support/console';

const { svc } = await setupConsoleSuite();
let context: BrowserContext;
let page: Page;
let projectId: string;
let ownerEmail: string;
let coOwner: Awaited<ReturnType<typeof newInternalUser>>;
const internalServer = () => serverApi(svc.url, DEV_KEYS.projectId, DEV_KEYS.secretServerKey);

afterAll(async () => context?.close());

const rows = () => page.getByTestId('project-owner');

describe('owners', () => {
  test('setup: an owner and their project; a second console account made an owner of it', async () => {
    ({ context, page } = await openConsole(svc, { width: 1280 }));
    ownerEmail = await signUpOwner(page);
    projectId = await createProject(page, 'Shared');
    coOwner = await newInternalUser(svc);
    expect((await internalServer().patch(`/users/${coOwner.userId}`, { server_metadata: { managedProjectIds: [projectId] } })).status).toBe(200);
  });

  test('both owners listed; removing the co-owner asks first; the last owner cannot be removed', async () => {
    await openScreen(page, 'Owners');
    await rows().nth(1).waitFor();
    // The project's "created" toast has closed by itself (it lay over the header in the screenshots).
    await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 15_000 });
    expect(await rows().allTextContents()).toEqual([expect.stringContaining(ownerEmail), expect.stringContaining(coOwner.email)]);
    await checkLooks(page, 'owners', (p) => p.getByTestId('project-owner').nth(1).waitFor());
    await checkLooksOnPhone(page, 'owners', (p) => p.getByTestId('project-owner').nth(1).waitFor());

    await page.getByRole('button', { name: `Remove ${coOwner.email}` }).click();
    const dialog = page.getByRole('dialog', { name: `Remove ${coOwner.email} as an owner?` });
    await dialog.getByText('They lose access to this project in the console at once.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await notification(page, `${coOwner.email} is no longer an owner`);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="project-owner"]').length === 1);
    const metadata = (await internalServer().get(`/users/${coOwner.userId}`)).body.server_metadata;
    expect(metadata.managedProjectIds).toEqual([]);

    expect(await page.getByRole('button', { name: `Remove ${ownerEmail}` }).isDisabled()).toBe(true);
    await page.getByTestId('last-owner-note').waitFor();
    await checkLooks(page, 'owners-last', (p) => p.getByTestId('last-owner-note').waitFor());
  });
});
