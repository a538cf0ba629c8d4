// My Profile: change the display name and see it in the <UserButton>; upload a real PNG, crop, save and find a
// JPEG of about 100 KB stored; a text file is "Invalid image".
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { screenshot, setupBrowserSuite } from '../support/browser';
import { openSettings, serverUser, settingsProject, signedInUser } from './support';

const { svc } = await setupBrowserSuite();
const project = await settingsProject(svc);

describe('account settings: My Profile', () => {
  test('a new display name shows in the UserButton', async () => {
    const { context, page } = await signedInUser(svc, project);
    await openSettings(page, 'profile', 'My Profile');
    await page.getByRole('button', { name: 'Edit User name' }).click();
    await page.getByRole('textbox', { name: 'User name' }).fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('editable-value').filter({ hasText: 'Ada Lovelace' }).waitFor();

    await page.goto('/');
    await page.getByRole('button', { name: 'Open account menu' }).waitFor();
    await expect(page.getByRole('banner').or(page.locator('header')).first().textContent()).resolves.toContain('Ada Lovelace');
    await context.close();
  }, 240_000);

  test('Cancel keeps the old name', async () => {
    const { context, page } = await signedInUser(svc, project);
    await openSettings(page, 'profile', 'My Profile');
    await page.getByRole('button', { name: 'Edit User name' }).click();
    await page.getByRole('textbox', { name: 'User name' }).fill('Not kept');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('editable-value').textContent()).resolves.toBe('Not set');
    await context.close();
  }, 240_000);

  test('a real PNG is cropped, compressed to a JPEG of about 100 KB and stored', async () => {
    const { context, page, user } = await signedInUser(svc, project);
    // A 1600×1200 PNG with noise (hard to compress), drawn by the browser itself.
    const pngBase64 = await page.evaluate(() => {
      const c = document.createElement('canvas');
      c.width = 1600; c.height = 1200;
      const ctx = c.getContext('2d')!;
      const img = ctx.createImageData(c.width, c.height);
      for (let i = 0; i < img.data.length; i += 4) {
        const x = (i / 4) % c.width;
        img.data[i] = (x * 7 + Math.random() * 90) & 255;
        img.data[i + 1] = Math.random() * 255;
        img.data[i + 2] = ((i / 4 / c.width) * 3) & 255;
        img.data[i + 3] = 255;
      }
      ctx.putImageData(img, 0, 0);
      return c.toDataURL('image/png').split(',')[1]!;
    });
    const file = join(tmpdir(), `avatar-${Date.now()}.png`);
    writeFileSync(file, Buffer.from(pngBase64, 'base64'));
    expect(Buffer.from(pngBase64, 'base64').length).toBeGreaterThan(1_000_000);

    await openSettings(page, 'profile', 'My Profile');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload an image' }).click();
    await (await chooser).setFiles(file);
    await page.getByRole('slider', { name: 'Zoom' }).waitFor();
    // Zoom in a little with the keyboard, as a person using the slider would.
    await page.getByRole('slider', { name: 'Zoom' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await screenshot(page, 'settings-profile-crop');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('slider', { name: 'Zoom' }).waitFor({ state: 'detached' });

    let url = '';
    for (const deadline = Date.now() + 20_000; Date.now() < deadline && !url; await Bun.sleep(200)) url = (await serverUser(project, user.userId)).profile_image_url ?? '';
    expect(url.startsWith('data:image/jpeg;base64,')).toBe(true);
    const bytes = Buffer.from(url.split(',')[1]!, 'base64');
    expect(bytes[0]).toBe(0xff);
    expect(bytes[1]).toBe(0xd8);
    expect(bytes.length).toBeLessThanOrEqual(110_000);
    expect(bytes.length).toBeGreaterThan(5_000);
    // The avatar now shows the stored picture.
    await expect(page.getByRole('button', { name: 'Upload an image' }).locator('img').getAttribute('src')).resolves.toStartWith('data:image/jpeg');
    await context.close();
  }, 240_000);

  test('a text file shows "Invalid image"', async () => {
    const { context, page } = await signedInUser(svc, project);
    const file = join(tmpdir(), `notes-${Date.now()}.txt`);
    writeFileSync(file, 'this is not a picture');
    await openSettings(page, 'profile', 'My Profile');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload an image' }).click();
    await (await chooser).setFiles(file);
    await page.getByText('Invalid image').waitFor();
    expect(await page.getByRole('slider', { name: 'Zoom' }).count()).toBe(0);
    await context.close();
  }, 240_000);
});
