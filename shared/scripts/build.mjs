#!/usr/bin/env node
// Builds the publishable client library into shared/dist/, which is the package root of what gets published:
// ESM JavaScript per entry point (Vite library mode; the three dependencies stay external), `.d.ts` files (tsc),
// and a package.json whose `exports` name only the entry points meant for users. Inside this repository the
// workspace keeps importing the TypeScript sources; the published package never carries them, nor the tests.
// Usage: node shared/scripts/build.mjs   then   npm pack ./shared/dist
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'vite';
import { emitDeclarations } from '../../scripts/lib/declarations.mjs';

const shared = resolve(import.meta.dirname, '..');
const root = resolve(shared, '..');
const dist = join(shared, 'dist');
const started = Date.now();
const workspace = JSON.parse(readFileSync(join(shared, 'package.json'), 'utf8'));

/** Entry point (subpath) → [source, built file, declaration file]. */
const ENTRIES = {
  '.': ['src/index.ts', 'index.js', 'types/index.d.ts'],
  './client': ['src/client/index.ts', 'client.js', 'types/client/index.d.ts'],
  './known-errors': ['src/known-errors.ts', 'known-errors.js', 'types/known-errors.d.ts'],
  './rules': ['src/rules/index.ts', 'rules.js', 'types/rules/index.d.ts'],
};
const DEPENDENCIES = Object.keys(workspace.dependencies ?? {});

rmSync(dist, { recursive: true, force: true });

await build({
  configFile: false,
  root: shared,
  logLevel: 'warn',
  build: {
    outDir: dist,
    emptyOutDir: false,
    sourcemap: true,
    minify: false,
    target: 'es2022',
    lib: {
      entry: Object.fromEntries(Object.values(ENTRIES).map(([src, out]) => [out.replace(/\.js$/, ''), join(shared, src)])),
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rollupOptions: {
      external: (id) => DEPENDENCIES.some((dep) => id === dep || id.startsWith(dep + '/')),
      output: { chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});

try {
  emitDeclarations({ root, tsconfig: join(shared, 'tsconfig.build.json'), typesDir: join(dist, 'types') });
} catch (e) {
  console.error(e.message);
  process.exit(1);
}

const manifest = {
  name: workspace.name,
  version: workspace.version,
  description: 'Gatehouse client library: client, server and admin apps for browsers, Node and Bun, the known-error catalogue and the validation rules.',
  license: 'MIT',
  type: 'module',
  sideEffects: false,
  engines: { node: '>=20' },
  exports: Object.fromEntries(Object.entries(ENTRIES).map(([sub, [, js, dts]]) => [sub, { types: `./${dts}`, import: `./${js}` }])),
  files: ['*.js', '*.js.map', 'chunks', 'types', 'README.md', 'LICENSE'],
  dependencies: workspace.dependencies,
};
writeFileSync(join(dist, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
copyFileSync(join(shared, 'PACKAGE-README.md'), join(dist, 'README.md'));
copyFileSync(join(root, 'LICENSE'), join(dist, 'LICENSE'));

console.log(`client library built into ${relative(root, dist)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
