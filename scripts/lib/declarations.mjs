// Declaration files for a publishable package (the client library and the account kit). TypeScript 7 has no JS
// API, so the tsc CLI emits them; the sources import with `.ts`/`.tsx` extensions, which consumers cannot resolve,
// so the emitted specifiers are rewritten to `.js` (and bare workspace specifiers by the caller's `rewriteBare`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function* declarationFiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* declarationFiles(p);
    else if (p.endsWith('.d.ts')) yield p;
  }
}

/** A relative specifier as Node-style resolution wants it: `./x.ts` and `./x` → `./x.js`, `./dir` → `./dir/index.js`. */
function relativeJs(fromFile, spec) {
  if (/\.tsx?$/.test(spec)) return spec.replace(/\.tsx?$/, '.js');
  if (/\.(m?js|json|css)$/.test(spec)) return spec;
  if (existsSync(join(dirname(fromFile), spec + '.d.ts'))) return spec + '.js';
  if (existsSync(join(dirname(fromFile), spec, 'index.d.ts'))) return spec + '/index.js';
  return spec;
}

/**
 * Runs `tsc -p tsconfig` (which must emit declarations into `typesDir`) and rewrites the specifiers of every
 * emitted file. `rewriteBare(file, spec)` returns a replacement for a bare specifier, or undefined to keep it.
 * Returns the number of files rewritten.
 */
export function emitDeclarations({ root, tsconfig, typesDir, rewriteBare = () => undefined }) {
  const tsc = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', tsconfig], { stdio: 'inherit' });
  if (tsc.status !== 0) throw new Error(`tsc -p ${tsconfig} failed: declarations not emitted`);
  let rewritten = 0;
  for (const file of declarationFiles(typesDir)) {
    const text = readFileSync(file, 'utf8');
    const out = text.replace(/((?:from|import)\s*\(?\s*)(['"])([^'"]+)\2/g, (whole, lead, q, spec) => {
      const next = spec.startsWith('.') ? relativeJs(file, spec) : (rewriteBare(file, spec) ?? spec);
      return next === spec ? whole : `${lead}${q}${next}${q}`;
    });
    if (out !== text) {
      writeFileSync(file, out);
      rewritten++;
    }
  }
  return rewritten;
}
