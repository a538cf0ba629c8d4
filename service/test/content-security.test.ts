// Issue 30 §8: the pages the service serves (the demo at / with its auth pages under /handler, the console at
// /console, the API reference at /api/v1/docs) send a Content-Security-Policy header that allows no inline script;
// the demo's project is written into the page as a JSON data element, not a script. In Chromium each page works
// under its policy: it renders, with no `securitypolicyviolation` event and no console error.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../../account-kit/test/support/browser';
import { DEV_KEYS, sharedService, type SharedService } from './support/service';

setDefaultTimeout(120_000);
let svc: SharedService;
let browser: Browser;
beforeAll(async () => {
  [svc, browser] = await Promise.all([sharedService(), chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS })]);
}, 120_000);
afterAll(async () => { await browser?.close(); });

const PAGES = ['/', '/handler/sign-in', '/console', '/console/some/deep/link', '/api/v1/docs'];

/** The policy's directives: name → sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...sources]) => [name!, sources]));
}

describe('the Content-Security-Policy header', () => {
  test('every page sends one: scripts from the service only, never inline or eval, never framed', async () => {
    for (const path of PAGES) {
      const res = await fetch(svc.url + path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      const policy = res.headers.get('content-security-policy');
      expect({ path, policy: typeof policy }).toEqual({ path, policy: 'string' });
      const d = directives(policy!);
      expect({ path, script: d.get('script-src') }).toEqual({ path, script: ["'self'"] });
      expect({ path, object: d.get('object-src'), base: d.get('base-uri'), frames: d.get('frame-ancestors') })
        .toEqual({ path, object: ["'none'"], base: ["'none'"], frames: ["'none'"] });
      // No inline script left in the page: every <script> has a src, or is a data block.
      const html = await res.text();
      const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attrs, body]) => !/\bsrc=/.test(attrs!) && !/type="application\/json"/.test(attrs!) && body!.trim());
      expect({ path, inline: inline.map((m) => m[0].slice(0, 80)) }).toEqual({ path, inline: [] });
    }
  });

  test('the demo gets its project as a JSON data element, escaped so no value can end it', async () => {
    const html = await (await fetch(`${svc.url}/handler/sign-in`)).text();
    const data = /<script type="application\/json" id="gatehouse-demo-config">([^<]*)<\/script>/.exec(html);
    expect(JSON.parse(data![1]!)).toEqual({ projectId: 'internal', publishableClientKey: DEV_KEYS.publishableClientKey });
    const { demoConfigElement } = await import('../src/http/front-ends');
    const hostile = demoConfigElement({ projectId: '</script><script>alert(1)</script>', publishableClientKey: null });
    expect(hostile).not.toContain('</script><script>');
    expect(JSON.parse(/>([^<]*)<\/script>$/.exec(hostile)![1]!).projectId).toBe('</script><script>alert(1)</script>');
  });
});

describe('each page works under its policy in Chromium', () => {
  const cases: { path: string; ready: string }[] = [
    { path: '/', ready: 'text=You are not signed in.' },
    { path: '/handler/sign-in', ready: 'text=Sign in to your account' },
    { path: '/console', ready: 'text=Connect to Gatehouse' },
    { path: '/api/v1/docs', ready: '#operations-tag-Users' },
  ];
  for (const { path, ready } of cases) {
    test(path, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(60_000);
      const errors: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { violations: string[] }).violations = seen;
        document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
      });
      try {
        await page.goto(svc.url + path);
        await page.locator(ready).first().waitFor();
        // Late loads (fonts, lazy chunks, the docs' spec) have their chance to be refused.
        await page.waitForLoadState('networkidle');
        const violations = await page.evaluate(() => (window as unknown as { violations: string[] }).violations);
        expect({ path, violations, errors }).toEqual({ path, violations: [], errors: [] });
      } finally {
        await context.close();
      }
    });
  }
});
