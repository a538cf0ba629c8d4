#!/usr/bin/env node
// The layering rules of CONTRIBUTING.md, checked on the service's imports (run by scripts/test.sh before the tests):
//   1. SQL lives in repo/ and db/: no other file imports drizzle-orm (or a drizzle-orm/* entry) or the Drizzle
//      schema (db/schema, or `schema` from db/index).
//   2. Flow modules (auth/, oauth/, email/, users/, teams/, tokens/, webhooks/, projects/, net/) know nothing of
//      HTTP: they import neither http/ nor routes/.
// Usage: node scripts/check-layers.mjs [service source directory] (default service/src). Exit 1 on a violation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SQL_HOMES = ['repo', 'db'];
const FLOW_DIRS = ['auth', 'oauth', 'email', 'users', 'teams', 'tokens', 'webhooks', 'projects', 'net'];
const HTTP_DIRS = ['http', 'routes'];
/**
 * Files still breaking a rule, each with what is left to do. Only the default tree uses this list; remove an entry
 * when its file is fixed (an entry for a file that no longer breaks the rule is itself reported).
 */
const KNOWN = new Map([]);

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|js|mjs)$/.test(name) ? [path] : [];
  });
}

/** Every module specifier the file imports or re-exports (static and dynamic), with the names it takes. */
export function importsOf(text) {
  const found = [];
  const re = /(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(re)) {
    found.push({ names: m[2] ?? '', specifier: m[3] ?? m[4] ?? m[5] });
  }
  return found;
}

/** The top directory (under the source root) a relative specifier resolves to, or null for packages. */
function targetOf(root, file, specifier) {
  if (!specifier.startsWith('.')) return null;
  const target = relative(root, resolve(dirname(file), specifier));
  return target.split(sep);
}

export function checkLayers(root, known = new Map()) {
  const problems = [];
  for (const file of sourceFiles(root)) {
    const rel = relative(root, file);
    const top = rel.split(sep)[0];
    const text = readFileSync(file, 'utf8');
    const before = problems.length;
    for (const { names, specifier } of importsOf(text)) {
      const target = targetOf(root, file, specifier);
      if (!SQL_HOMES.includes(top)) {
        if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
          problems.push(`${rel}: imports ${specifier} (SQL belongs in repo/ or db/)`);
        } else if (target && target[0] === 'db' && (target[1] === 'schema' || /\bschema\b/.test(names))) {
          problems.push(`${rel}: imports the Drizzle schema from ${specifier} (SQL belongs in repo/ or db/)`);
        }
      }
      if (FLOW_DIRS.includes(top) && target && HTTP_DIRS.includes(target[0]) && target.length > 1) {
        problems.push(`${rel}: imports ${specifier} (flow modules know nothing of HTTP)`);
      }
    }
    const key = rel.split(sep).join('/');
    if (known.has(key)) {
      if (problems.length === before) problems.push(`${key}: listed as a known exception but keeps the rules now (remove it from KNOWN)`);
      else problems.splice(before);
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '../service/src'));
  const problems = checkLayers(root, process.argv[2] ? new Map() : KNOWN);
  if (problems.length) {
    console.error(`check-layers: ${problems.length} violation(s) of the layering rules (CONTRIBUTING.md):`);
    for (const p of problems) console.error(`  ${p}`);
    process.exit(1);
  }
  console.log('check-layers: SQL only in repo/ and db/; flow modules import neither http/ nor routes/');
  for (const [file, why] of process.argv[2] ? [] : KNOWN) console.log(`  known exception: ${file}: ${why}`);
}
