// The demo in German (?lang=de): every text of the sign-in page comes from the German catalogue.
import { describe, expect, test } from 'bun:test';
import { en } from '../../src/messages/en';
import { newProject, openDemo, screenshot, setupBrowserSuite } from '../support/browser';
import type { Page } from 'playwright-core';

const { svc } = await setupBrowserSuite();
const project = await newProject(svc, {
  config: { credential_enabled: true, magic_link_enabled: true, passkey_enabled: true, oauth_providers: [{ id: 'github', type: 'shared', enabled: true }] },
});

/** Visible text plus the texts a screen reader reads (labels, titles, placeholders). */
function everyText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attrs = [...document.querySelectorAll('[aria-label],[title],[placeholder],[alt]')]
      .flatMap((el) => ['aria-label', 'title', 'placeholder', 'alt'].map((a) => el.getAttribute(a) ?? ''));
    return [document.body.innerText, ...attrs].join('\n');
  });
}

// English words that are the same in German, and brand names.
const SAME_IN_GERMAN = new Set(['Team', 'Passkey', 'Email']);

function englishFound(text: string): string[] {
  return Object.values(en).filter((s) => s.length > 3 && !SAME_IN_GERMAN.has(s) && !s.includes('{') && text.includes(s));
}

describe('German', () => {
  test('the sign-in page (both tabs) shows no English text', async () => {
    const { context, page } = await openDemo(svc, { project, lang: 'de' });
    await page.goto('/handler/sign-in');
    await page.getByRole('heading', { name: 'Bei Ihrem Konto anmelden' }).waitFor();
    expect(englishFound(await everyText(page))).toEqual([]);
    await page.getByRole('tab').nth(1).click();
    await page.locator('input[type="password"]').waitFor();
    const text = await everyText(page);
    expect(englishFound(text)).toEqual([]);
    expect(text).not.toContain('Sign in');
    expect(text).not.toContain('Password');
    await screenshot(page, 'sign-in-de');
    // A validation message is German too.
    await page.locator('button[type="submit"]').click();
    expect(englishFound(await everyText(page))).toEqual([]);
    await context.close();
  });

  test('the sign-up page and an unknown page are German', async () => {
    const { context, page } = await openDemo(svc, { project, lang: 'de' });
    await page.goto('/handler/sign-up');
    await page.locator('h1').waitFor();
    expect(englishFound(await everyText(page))).toEqual([]);
    await page.goto('/handler/unbekannt');
    await page.locator('h2').waitFor();
    expect(englishFound(await everyText(page))).toEqual([]);
    await context.close();
  });
});
