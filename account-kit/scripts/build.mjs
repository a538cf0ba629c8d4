#!/usr/bin/env node
// Builds the publishable package into dist/: ESM JavaScript (Vite library mode; React, Mantine and the kit's
// own dependencies stay external, the client library of @gatehouse/shared is bundled in because that package is
// not published), dist/account-kit.css (Mantine's base and the components the screens use, plus the settings
// page's sheet) and .d.ts files (tsc; TypeScript 7 has no JS API, so the CLI runs and the `@gatehouse/shared`
// specifiers of its output are rewritten to the emitted copies of those sources).
// Usage: node account-kit/scripts/build.mjs   (or `npm run build -w @gatehouse/account-kit`)
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { declarationFiles, emitDeclarations } from '../../scripts/lib/declarations.mjs';

const kit = resolve(import.meta.dirname, '..');
const root = resolve(kit, '..');
const dist = join(kit, 'dist');
const started = Date.now();

// Everything a host installs itself (peer dependencies) or that the package depends on.
const EXTERNAL = [
  /^react($|\/)/, /^react-dom($|\/)/, /^@mantine\//, /^@tabler\/icons-react($|\/)/, /^@simplewebauthn\/browser($|\/)/,
  /^@sinclair\/typebox($|\/)/, /^qrcode($|\/)/, /^react-easy-crop($|\/)/,
];

rmSync(dist, { recursive: true, force: true });

await build({
  configFile: false,
  root: kit,
  logLevel: 'warn',
  plugins: [react()],
  build: {
    outDir: dist,
    emptyOutDir: false,
    sourcemap: false,
    minify: false,
    cssMinify: true,
    target: 'es2022',
    lib: {
      entry: { index: join(kit, 'scripts/package-entry.ts') },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
      cssFileName: 'account-kit',
    },
    rollupOptions: {
      external: (id) => EXTERNAL.some((re) => re.test(id)),
      output: { chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});

// Declarations of the kit and of the shared sources it uses, laid out as in the repository.
const types = join(dist, 'types');
const sharedSrc = join(types, 'shared/src');

/** The emitted declaration file a `@gatehouse/shared[/x]` specifier means, as a relative `.js` specifier. */
function sharedTarget(fromFile, spec) {
  const sub = spec === '@gatehouse/shared' ? 'index' : spec.slice('@gatehouse/shared/'.length);
  const base = existsSync(join(sharedSrc, sub + '.d.ts')) ? sub : `${sub}/index`;
  if (!existsSync(join(sharedSrc, base + '.d.ts'))) throw new Error(`no declarations for ${spec} (looked for ${base}.d.ts)`);
  let rel = relative(dirname(fromFile), join(sharedSrc, base + '.js')).split(sep).join('/');
  return rel.startsWith('.') ? rel : './' + rel;
}

let rewritten;
try {
  rewritten = emitDeclarations({
    root,
    tsconfig: join(kit, 'tsconfig.build.json'),
    typesDir: types,
    rewriteBare: (file, spec) => (spec === '@gatehouse/shared' || spec.startsWith('@gatehouse/shared/') ? sharedTarget(file, spec) : undefined),
  });
} catch (e) {
  console.error(e.message);
  process.exit(1);
}
const left = [...declarationFiles(types)].filter((f) => /['"]@gatehouse\/shared/.test(readFileSync(f, 'utf8')));
if (left.length) throw new Error(`@gatehouse/shared specifiers left in ${left.join(', ')}`);

console.log(`account kit built into ${relative(root, dist)} in ${((Date.now() - started) / 1000).toFixed(1)} s (${rewritten} declaration files rewritten)`);
