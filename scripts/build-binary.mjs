#!/usr/bin/env node
// `npm run build:binary`: one executable, dist/gatehouse, holding the service (service/src/cli.ts and the embedded
// database's thread), the migrations, the built account pages and console, Swagger UI and PGlite's files. It runs
// where neither Node nor Bun is installed (README, "One binary").
// Usage: node scripts/build-binary.mjs [--target=bun-linux-x64] [--outfile=dist/gatehouse]
// Other targets Bun compiles for: bun-linux-arm64, bun-linux-x64-musl, bun-linux-arm64-musl, bun-darwin-x64,
// bun-darwin-arm64, bun-windows-x64 (a target other than this machine's needs Bun's runtime for it downloaded).
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = resolve(import.meta.dirname, '..');
const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const target = option('target', 'bun-linux-x64');
const outfile = option('outfile', 'dist/gatehouse');

function run(command, args, cwd = root) {
  const r = spawnSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed (exit ${r.status})`);
    process.exit(1);
  }
}

// The front ends first (built only when their sources changed); the binary serves what is built now.
run(process.execPath, ['scripts/build-ui.mjs']);

// Embedded under their repository paths: service/src/install-root.ts, db/index.ts and db/pglite-worker.ts find them
// at the root of the executable's files. Bun keeps a directory's relative path but puts a single file at the root,
// so the files are copied into a staging directory first and embedded from there.
const PGLITE = 'node_modules/@electric-sql/pglite/dist';
const SWAGGER = 'node_modules/swagger-ui-dist';
const migrations = readdirSync(join(root, 'drizzle')).filter((f) => f.endsWith('.sql')).map((f) => `drizzle/${f}`);
const files = [
  ...migrations, 'drizzle/meta/_journal.json',
  'account-kit/demo/dist', 'desktop/out/web',
  ...['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'].map((f) => `${SWAGGER}/${f}`),
  ...['pglite.wasm', 'pglite.data', 'initdb.wasm', 'pg_trgm.tar.gz'].map((f) => `${PGLITE}/${f}`),
];
const staging = join(root, 'dist/binary-files');
rmSync(staging, { recursive: true, force: true });
for (const file of files) {
  if (!existsSync(join(root, file))) {
    console.error(`Cannot build the binary: ${file} is missing${/dist|out\//.test(file) ? ' (the front ends did not build?)' : ''}`);
    process.exit(1);
  }
  cpSync(join(root, file), join(staging, file), { recursive: true });
}
// The OpenAPI document's known errors per route, which the service reads from its sources (http/openapi-errors.ts):
// found now, as the binary holds no sources.
run(join(root, 'node_modules/.bin/bun'), ['scripts/openapi-errors.ts', join(staging, 'service/openapi-errors.json')]);

const commit = (() => {
  const head = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8' });
  if (head.status !== 0) return '';
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  return head.stdout.trim() + (dirty ? '-modified' : '');
})();

mkdirSync(join(root, outfile, '..'), { recursive: true });
const started = Date.now();
run(join(root, 'node_modules/.bin/bun'), [
  'build', '--compile', `--target=${target}`,
  // The embedded database's thread is an entry of its own; flat names put it where db/pglite-remote.ts's
  // `new URL('./pglite-worker.ts', import.meta.url)` points inside the executable.
  join(root, 'service/src/cli.ts'), join(root, 'service/src/db/pglite-worker.ts'), '--entry-naming=[name].[ext]',
  ...readdirSync(staging).flatMap((dir) => ['--asset', dir]),
  `--define=GATEHOUSE_BUILD_COMMIT=${JSON.stringify(commit)}`,
  // A bunfig.toml where the binary runs must not change it (a .env is still read, as `npm start` reads one).
  '--no-compile-autoload-bunfig',
  `--outfile=${join(root, outfile)}`,
], staging);
rmSync(staging, { recursive: true, force: true });
const mb = (statSync(join(root, outfile)).size / 1024 / 1024).toFixed(0);
console.log(`Built ${outfile} (${target}, ${mb} MB, commit ${commit || 'unknown'}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
