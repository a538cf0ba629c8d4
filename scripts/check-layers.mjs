#!/usr/bin/env node
// The layering rules of docs/architecture.md and CONTRIBUTING.md, checked on the service's source (run by
// scripts/test.sh before the tests). The layers are top-level folders of service/src:
//   db/          connection, schema, read cache, storage forms of secrets;
//   repo/        the only SQL besides db/; returns rows and domain records;
//   presenters/  the API's shapes, built from those rows and records;
//   http/ routes/  the edge: a route decodes, calls one use case, encodes;
//   every other folder (auth/, users/, teams/, ...): use cases and the rules they apply, no HTTP;
//   files at the root: the wiring (app, services, main...).
// Rules:
//   sql          no file outside repo/ and db/ imports drizzle-orm (or a drizzle-orm/* entry) or the Drizzle schema;
//   no-http      no file outside http/, routes/ and the root imports http/ or routes/;
//   routes       a route file holds no `transaction(`, no event emission (events.emit, security notices, queued
//                mail, waking workers) and no use of the database handle (`.db`), and imports repo/ and db/ for their
//                types only: the work is a use case's;
//   repo         repo/ imports only db/ and repo/ (and packages, shared/ among them), types included;
//   shapes       repo/ builds no API shape: it exports no `view` / `...View` function and imports no type a
//                presenters/ function returns;
//   presenters   presenters/ import only presenters/ and types of repo/ (and packages): pure functions of rows;
//   db           db/ imports only db/ (and packages), types included, and has no import cycle, types included;
//   cycles       no import cycle among the modules of service/src at run time (`import type` does not count).
// Usage: node scripts/check-layers.mjs [service source directory] (default service/src). Exit 1 on a violation.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The rules' names, as docs/architecture.md states them (`[check: name]`) and each problem ends (`[name]`). */
export const RULES = ['sql', 'no-http', 'routes', 'repo', 'shapes', 'presenters', 'db', 'cycles'];
const SQL_HOMES = ['repo', 'db'];
const EDGE = ['http', 'routes'];
/** Event emission in a route: webhook events, security notices, queued mail, the workers woken after a write. */
const EMISSION = /\bemit\s*\(|\bqueueNotice\s*\(|\bsendQueuedNotices\s*\(|\benqueue\w*\s*\(|Workers\.wake\s*\(/;

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|js|mjs)$/.test(name) ? [path] : [];
  });
}

/**
 * Every module specifier the file imports or re-exports (static and dynamic), with the names it takes and whether
 * only types are taken (`import type`, `export type`, or every name marked `type`).
 */
export function importsOf(text) {
  const found = [];
  const re = /(?:^|[\n;])\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[\n;])\s*import\s+['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(re)) {
    const names = m[3] ?? '';
    const braced = /^\{([\s\S]*)\}$/.exec(names.trim());
    const listed = braced ? braced[1].split(',').map((n) => n.trim()).filter(Boolean) : [];
    const typeOnly = Boolean(m[2]) || (listed.length > 0 && listed.every((n) => n.startsWith('type ')));
    found.push({ names, specifier: m[4] ?? m[5] ?? m[6], typeOnly });
  }
  return found;
}

/** The path (under the source root) of the module a relative specifier names, split in parts; null for packages. */
function targetOf(root, file, specifier) {
  if (!specifier.startsWith('.')) return null;
  return relative(root, resolve(dirname(file), specifier)).split(sep);
}

const isFolder = (root, name) => existsSync(join(root, name)) && statSync(join(root, name)).isDirectory();

/** The file a relative specifier resolves to (x, x.ts, x/index.ts...), or null. */
function resolveFile(file, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(file), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mts`, `${base}.js`, `${base}.mjs`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The lines of code, without comment lines and trailing `// ...` comments (a mention in a comment is no call). */
function codeLines(text) {
  let inBlock = false;
  return text.split('\n').map((line, i) => {
    const t = line.trim();
    if (inBlock) { if (t.includes('*/')) inBlock = false; return { n: i + 1, code: '' }; }
    if (t.startsWith('/*')) { inBlock = !t.includes('*/'); return { n: i + 1, code: '' }; }
    if (t.startsWith('//')) return { n: i + 1, code: '' };
    const trailing = line.search(/\s\/\/\s/);
    const code = trailing >= 0 && (line.slice(0, trailing).split("'").length % 2 === 1) ? line.slice(0, trailing) : line;
    return { n: i + 1, code };
  });
}

/** The type names the exported functions of presenters/ return (`): T`, `): Promise<T>`, `): T[]`). */
function presentedTypes(files, root) {
  const names = new Set();
  for (const file of files) {
    if (relative(root, file).split(sep)[0] !== 'presenters') continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/export\s+(?:async\s+)?function\s+\w+\s*(?:<[^>]*>)?\([^)]*\)\s*:\s*(?:Promise<)?([A-Z]\w*)/g)) names.add(m[1]);
  }
  return names;
}

/** Runtime import cycles: the strongly connected groups (of two or more modules, or one importing itself). */
function cyclesOf(graph) {
  let index = 0;
  const stack = [], onStack = new Set(), indexOf = new Map(), low = new Map(), groups = [];
  const visit = (v) => {
    indexOf.set(v, index); low.set(v, index); index++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const group = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); group.push(w); } while (w !== v);
      if (group.length > 1 || graph.get(v)?.has(v)) groups.push(group);
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return groups;
}

export function checkLayers(root) {
  const problems = [];
  const files = sourceFiles(root);
  const presented = presentedTypes(files, root);
  const graph = new Map();
  /** db/'s imports, types included. */
  const dbGraph = new Map();
  for (const file of files) {
    const rel = relative(root, file).split(sep).join('/');
    const parts = rel.split('/');
    const top = parts.length > 1 ? parts[0] : null;
    const text = readFileSync(file, 'utf8');
    const edges = new Set();
    graph.set(file, edges);
    for (const { names, specifier, typeOnly } of importsOf(text)) {
      const target = targetOf(root, file, specifier);
      // The folder the module is in (`../db` is db/index.ts); null for a file at the root or a package.
      const targetTop = target && (target.length > 1 || isFolder(root, target[0])) ? target[0] : null;
      const resolved = resolveFile(file, specifier);
      if (resolved && !typeOnly) edges.add(resolved);
      if (top === 'db' && resolved && targetTop === 'db') {
        if (!dbGraph.has(file)) dbGraph.set(file, new Set());
        dbGraph.get(file).add(resolved);
      }
      if (!SQL_HOMES.includes(top)) {
        if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
          problems.push(`${rel}: imports ${specifier} (SQL belongs in repo/ or db/) [sql]`);
        } else if (target && target[0] === 'db' && (target[1] === 'schema' || /\bschema\b/.test(names))) {
          problems.push(`${rel}: imports the Drizzle schema from ${specifier} (SQL belongs in repo/ or db/) [sql]`);
        }
      }
      if (top && !EDGE.includes(top) && EDGE.includes(targetTop)) {
        problems.push(`${rel}: imports ${specifier} (only http/, routes/ and the wiring at the root know HTTP) [no-http]`);
      }
      if (top === 'routes' && (targetTop === 'repo' || targetTop === 'db') && !typeOnly) {
        problems.push(`${rel}: imports ${specifier} (a route calls a use case; it imports repo/ and db/ for types only) [routes]`);
      }
      if (top === 'repo' && target && !['repo', 'db'].includes(targetTop)) {
        problems.push(`${rel}: imports ${specifier} (repo/ imports only db/, repo/ and packages) [repo]`);
      }
      if (top === 'repo' && /@gatehouse\/shared\/schemas\//.test(specifier)) {
        for (const name of names.replace(/[{}]/g, '').split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0])) {
          if (presented.has(name)) problems.push(`${rel}: imports ${name} from ${specifier} (an API shape: presenters/ build it from repo/ records) [shapes]`);
        }
      }
      if (top === 'presenters' && target && !(targetTop === 'presenters' || (targetTop === 'repo' && typeOnly))) {
        problems.push(`${rel}: imports ${specifier} (presenters/ import only presenters/ and repo/ types) [presenters]`);
      }
      if (top === 'db' && target && targetTop !== 'db') {
        problems.push(`${rel}: imports ${specifier} (db/ imports only db/ and packages) [db]`);
      }
    }
    if (top === 'repo') {
      for (const m of text.matchAll(/export\s+(?:async\s+)?function\s+(view|\w+View)\b/g)) {
        problems.push(`${rel}: exports ${m[1]} (an API shape: presenters/ build it from repo/ records) [shapes]`);
      }
    }
    if (top === 'routes') {
      for (const { n, code } of codeLines(text)) {
        if (/\btransaction\s*\(/.test(code)) problems.push(`${rel}:${n}: runs a transaction (a route calls a use case, which runs it) [routes]`);
        const emission = EMISSION.exec(code);
        if (emission) problems.push(`${rel}:${n}: emits (${emission[0].replace(/\s*\($/, '')}) (events and notices are a use case's, inside its transaction) [routes]`);
        if (/\.db\b/.test(code)) problems.push(`${rel}:${n}: reaches the database handle (a route calls a use case, which reads and writes) [routes]`);
      }
    }
  }
  const named = (group) => group.map((f) => relative(root, f).split(sep).join('/')).sort().join(' -> ');
  for (const group of cyclesOf(graph)) problems.push(`import cycle at run time: ${named(group)} [cycles]`);
  for (const group of cyclesOf(dbGraph)) {
    if (!cyclesOf(graph).some((g) => g.includes(group[0]))) problems.push(`import cycle in db/ (types included): ${named(group)} [db]`);
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '../service/src'));
  const problems = checkLayers(root);
  if (problems.length) {
    console.error(`check-layers: ${problems.length} violation(s) of the layering rules (docs/architecture.md):`);
    for (const p of problems) console.error(`  ${p}`);
    process.exit(1);
  }
  console.log('check-layers: SQL only in repo/ and db/; HTTP only in http/ and routes/; routes call use cases (no transaction, no emission, no database handle); repo/ imports db/ and repo/ and builds no API shape; presenters pure; db/ self-contained and acyclic; no runtime import cycle');
}
