// The import graph of the front-end packages' sources, for the checks of scripts/check-*.mjs: which module a file
// imports, whether only for types, and whether statically (evaluated when the importer loads) or through `import()`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'out', '.vite']);

/** Every source file under `dir` (build output and dependencies left out). */
export function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIPPED_DIRS.has(name) ? [] : sourceFiles(path);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Comments blanked out (string contents kept), so an example in a comment is not read as an import. */
export function withoutComments(text) {
  return text.replace(/("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (m, str) =>
    str ?? m.replace(/[^\n]/g, ' '),
  );
}

/**
 * The imports and re-exports of a module's text: `{ specifier, kind }` where kind is
 *   'type'    `import type …`, `export type … from`, or braces naming only `type X` bindings (erased when compiled);
 *   'static'  any other import or re-export, side-effect imports included (evaluated before the importer runs);
 *   'dynamic' `import('…')` with a literal specifier (evaluated when the call runs, after both modules have loaded).
 */
export function importsOf(text) {
  const code = withoutComments(text);
  const found = [];
  const declaration = /\b(import|export)\s+(type\s+)?([\w*${},\s]*?)\s*from\s*['"]([^'"]+)['"]/g;
  for (const m of code.matchAll(declaration)) {
    const clause = m[3].trim();
    const braces = /^\{([^}]*)\}$/.exec(clause);
    const onlyTypes =
      braces !== null && braces[1].trim() !== '' && braces[1].split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type '));
    found.push({ specifier: m[4], kind: m[2] || onlyTypes ? 'type' : 'static' });
  }
  for (const m of code.matchAll(/(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]/g)) found.push({ specifier: m[1], kind: 'static' });
  for (const m of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ specifier: m[1], kind: 'dynamic' });
  return found;
}

const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.js', '.mjs', '/index.ts', '/index.tsx'];

/** The file a path without (or with) its extension names, or undefined. */
function existingFile(base) {
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * Resolves a specifier to a file: relative paths, and the workspace packages by their `exports` (read from their
 * package.json under `repoRoot`). Anything else (npm packages, CSS) resolves to undefined.
 */
export function makeResolver(repoRoot) {
  const packages = new Map();
  for (const dir of ['shared', 'account-kit', 'desktop', 'service']) {
    const manifest = join(repoRoot, dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    packages.set(pkg.name, { dir: join(repoRoot, dir), exports: pkg.exports });
  }
  // The account kit's `exports` name its build; inside the repository the front ends use its sources (as the
  // console's Vite aliases and tsconfig paths do).
  const sourceEntries = { '@gatehouse/account-kit': 'src/index.ts' };
  return (fromFile, specifier) => {
    if (specifier.startsWith('.')) return existingFile(resolve(dirname(fromFile), specifier));
    const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
    const pkg = packages.get(name);
    if (!pkg) return undefined;
    const sub = '.' + specifier.slice(name.length);
    if (sub === '.' && sourceEntries[name]) return existingFile(join(pkg.dir, sourceEntries[name]));
    const exp = pkg.exports ?? {};
    const target = typeof exp[sub] === 'string' ? exp[sub] : undefined;
    if (target) return existingFile(join(pkg.dir, target));
    for (const [pattern, to] of Object.entries(exp)) {
      if (!pattern.endsWith('*') || typeof to !== 'string' || !sub.startsWith(pattern.slice(0, -1))) continue;
      const file = existingFile(join(pkg.dir, to.replace('*', sub.slice(pattern.length - 1))));
      if (file) return file;
    }
    return undefined;
  };
}

/** `path` relative to `root` with forward slashes (for messages). */
export function displayPath(root, path) {
  return relative(root, path).split(sep).join('/');
}
