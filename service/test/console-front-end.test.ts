// The console (desktop/out/web, built by `node scripts/build-ui.mjs`) served at /console: a single-page app whose
// index gets the internal project's development key in a <meta>, only while that key is valid.
import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { consoleConfigMeta } from '../src/http/front-ends';
import { adminApi, DEV_KEYS, startService } from './support/service';
import { isolatedDatabase } from './support/isolated-database';

const BUILT = join(import.meta.dir, '../../desktop/out/web/index.html');

describe('console front end at /console', () => {
  test('the meta escapes what could end the attribute or the tag', () => {
    const meta = consoleConfigMeta({ publishableClientKey: '"><script>x</script>' });
    expect(meta).not.toContain('"><script>');
    expect(meta).toContain('&quot;&gt;&lt;script&gt;');
  });

  test('index and deep links get the dev key while it is valid, and none once it is revoked', async () => {
    if (!existsSync(BUILT)) throw new Error('The console is not built: run `node scripts/build-ui.mjs` (npm test does).');
    // It revokes the development keys: on PostgreSQL it must not do that to the database the other tests share.
    const db = await isolatedDatabase();
    const svc = await startService({ env: db.url ? { DATABASE_URL: db.url } : {} });
    try {
      for (const path of ['/console', '/console/', '/console/some/deep/link']) {
        const res = await fetch(svc.url + path);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toContain('text/html');
        const html = await res.text();
        expect(html).toContain(`<meta name="gatehouse-console-config" content="{&quot;publishableClientKey&quot;:&quot;${DEV_KEYS.publishableClientKey}&quot;}">`);
        expect(html).not.toContain('<!--gatehouse-console-config-->');
      }
      // A missing asset is a 404, not the app's page.
      expect((await fetch(`${svc.url}/console/assets/missing-abcdef12.js`)).status).toBe(404);

      // Revoke the development key set: the console must stop advertising it (the check is cached for 10 s).
      const admin = adminApi(svc.url, DEV_KEYS.projectId, DEV_KEYS.superSecretAdminKey);
      const keys = await admin.get('/internal/api-keys');
      const dev = keys.body.items.find((k: any) => k.publishable_client_key?.last_four === DEV_KEYS.publishableClientKey.slice(-4));
      expect(dev).toBeDefined();
      expect((await admin.patch(`/internal/api-keys/${dev.id}`, { revoked: true })).status).toBe(200);
      await Bun.sleep(10_500);
      const html = await (await fetch(`${svc.url}/console/`)).text();
      expect(html).toContain('<meta name="gatehouse-console-config" content="{&quot;publishableClientKey&quot;:null}">');
    } finally {
      await svc.stop();
      await db.drop();
    }
  });
});
