// The sign-in page's weight (issue 9's budget, issue 25): the gzipped JavaScript a browser loads to show it,
// every chunk fetched until the form can be used and the network is quiet, at most 130 KB; its CSS at most 20 KB.
// Measured on the production build the service serves, gzipped here (level 9, what a server's gzip comes close to).
import { describe, expect, test } from 'bun:test';
import { gzipSync } from 'node:zlib';
import { openDemo, setupBrowserSuite } from '../support/browser';

const { svc } = await setupBrowserSuite();
const JS_BUDGET_KB = 130;
const CSS_BUDGET_KB = 20;

describe('sign-in page budget', () => {
  test(`its JavaScript is under ${JS_BUDGET_KB} KB gzipped and its CSS under ${CSS_BUDGET_KB} KB`, async () => {
    const { context, page } = await openDemo(svc);
    const loaded = new Map<string, Promise<Buffer>>();
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.origin === svc.url && /\.(m?js|css)$/.test(url.pathname)) loaded.set(url.pathname, res.body());
    });
    await page.goto('/handler/sign-in');
    await page.getByRole('button', { name: 'Sign In', exact: true }).or(page.getByRole('tab', { name: 'Email & Password' })).first().waitFor();
    await page.waitForLoadState('networkidle');
    let js = 0;
    let css = 0;
    const sizes: string[] = [];
    for (const [path, body] of loaded) {
      const gz = gzipSync(await body, { level: 9 }).length;
      if (path.endsWith('.css')) css += gz;
      else js += gz;
      sizes.push(`${path}: ${(gz / 1024).toFixed(1)} KB`);
    }
    const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
    console.log(`sign-in page: JS ${kb(js)} KB, CSS ${kb(css)} KB gzipped\n  ${sizes.join('\n  ')}`);
    expect(js).toBeGreaterThan(0);
    expect(kb(js)).toBeLessThanOrEqual(JS_BUDGET_KB);
    expect(kb(css)).toBeLessThanOrEqual(CSS_BUDGET_KB);
    await context.close();
  });
});
