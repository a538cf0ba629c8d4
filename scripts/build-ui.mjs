#!/usr/bin/env node
// Builds the front ends the service serves (the account kit's demo at /, the console at /console) when their
// sources are newer than the last build. `npm start` and `npm test` run it; built files are never committed.
// Usage: node scripts/build-ui.mjs [--force]
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = resolve(import.meta.dirname, '..');
const force = process.argv.includes('--force');

/** Newest modification time of the files under `paths` (node_modules and build output skipped). */
function newest(paths) {
  let max = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (!['node_modules', 'dist', 'out', 'test', 'artifacts'].includes(name)) walk(join(p, name));
    } else max = Math.max(max, st.mtimeMs);
  };
  paths.forEach((p) => walk(join(root, p)));
  return max;
}

const targets = [
  {
    name: 'account pages (account-kit demo)',
    output: 'account-kit/demo/dist/index.html',
    sources: ['account-kit/src', 'account-kit/demo', 'shared/src', 'package-lock.json'],
    command: ['node_modules/.bin/vite', 'build', '--config', 'account-kit/demo/vite.config.ts'],
  },
  {
    name: 'console (desktop renderer for the web)',
    output: 'desktop/out/web/index.html',
    sources: ['desktop/src', 'account-kit/src', 'shared/src', 'electron.vite.config.ts', 'desktop/vite.web.config.ts', 'package-lock.json'],
    command: ['node_modules/.bin/vite', 'build', '--config', 'desktop/vite.web.config.ts'],
    optional: () => existsSync(join(root, 'desktop/vite.web.config.ts')),
  },
];

// A production install (`npm ci --omit=dev`) has no Vite: the service starts with the front ends built before
// (`npm run build` where the development dependencies are installed), or without them (the API works alone).
const viteInstalled = existsSync(join(root, 'node_modules/.bin/vite'));

let failed = false;
for (const t of targets) {
  if (t.optional && !t.optional()) continue;
  const out = join(root, t.output);
  if (!viteInstalled) {
    if (!existsSync(out)) console.log(`Not built: the ${t.name}. Vite (a development dependency) is not installed; the service runs without it. Build it with \`npm run build\` where the development dependencies are installed.`);
    continue;
  }
  if (!force && existsSync(out) && statSync(out).mtimeMs >= newest(t.sources)) continue;
  const started = Date.now();
  process.stdout.write(`Building the ${t.name}... `);
  const r = spawnSync(t.command[0], t.command.slice(1), { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    failed = true;
    console.error(`\nbuild of the ${t.name} failed (exit ${r.status})`);
  } else console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
process.exit(failed ? 1 : 0);
