#!/usr/bin/env node
// No runtime import cycles in the front-end packages (shared/, account-kit/, desktop/): run by scripts/test.sh.
//
// An edge is a static import or re-export that survives compilation. Type-only imports (`import type`,
// `export type … from`, braces naming only `type X` bindings) are erased, so they cannot form a cycle.
//
// A dynamic `import('…')` is not an edge. A cycle of static imports is a problem of evaluation order: one module of it
// runs before the other has finished, so it sees undefined bindings or bindings still in their temporal dead zone, and
// code grows load-time registration to get around that (the client library's admin-app.ts registered an owned-project
// factory into models/projects.ts, and a bundler that dropped admin-app.ts, the package being `sideEffects: false`,
// dropped the registration with it). `import()` evaluates its target when the call runs, after both modules have
// loaded, and it is the way a lower layer reaches an upper one the API itself ties to it (an internal user's owned
// project carries an admin app, whose class extends the client app's) as well as the way chunks are split on purpose
// (the signed-in user's model, OAuth, passkeys). Counting it would forbid the first and force the registration back.
//
// Usage: node scripts/check-cycles.mjs [directory…]   (default: shared, account-kit, desktop). Exit 1 on a cycle.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { displayPath, importsOf, makeResolver, sourceFiles } from './lib/module-graph.mjs';

/** The static (runtime) import graph of the files under `dirs`: file → files it imports, within those files. */
export function runtimeGraph(repoRoot, dirs) {
  const resolveSpecifier = makeResolver(repoRoot);
  const files = dirs.flatMap((d) => sourceFiles(d));
  const inScope = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const { specifier, kind } of importsOf(readFileSync(file, 'utf8'))) {
      if (kind !== 'static') continue;
      const target = resolveSpecifier(file, specifier);
      if (target && inScope.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Strongly connected components with more than one module (or a module importing itself), each as one cycle path. */
export function findCycles(graph) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  // Iterative Tarjan: the console's graph is deep enough that recursion is fine, but a generated tree might not be.
  for (const start of graph.keys()) {
    if (indices.has(start)) continue;
    const work = [[start, 0]];
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      if (i === 0) {
        indices.set(node, index);
        low.set(node, index);
        index++;
        stack.push(node);
        onStack.add(node);
      }
      const next = graph.get(node) ?? [];
      if (i < next.length) {
        frame[1]++;
        const to = next[i];
        if (!indices.has(to)) work.push([to, 0]);
        else if (onStack.has(to)) low.set(node, Math.min(low.get(node), indices.get(to)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === indices.get(node)) {
        const members = [];
        let m;
        do {
          m = stack.pop();
          onStack.delete(m);
          members.push(m);
        } while (m !== node);
        if (members.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(members.sort());
      }
    }
  }
  return components.map((members) => ({ members, path: cyclePath(graph, new Set(members), members[0]) }));
}

/** One concrete loop through `from` inside the component (shortest, by breadth-first search). */
function cyclePath(graph, members, from) {
  const previous = new Map();
  const queue = [from];
  while (queue.length) {
    const node = queue.shift();
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === from) {
        const path = [from];
        for (let n = node; n !== from; n = previous.get(n)) path.splice(1, 0, n);
        return [...path, from];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [from, from];
}

/** The runtime cycles of `dirs`, as lines naming the modules of each. */
export function checkCycles(repoRoot, dirs) {
  return findCycles(runtimeGraph(repoRoot, dirs)).map(
    ({ members, path }) => `${members.length} modules: ${path.map((p) => displayPath(repoRoot, p)).join(' → ')}`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const given = process.argv.slice(2);
  const dirs = (given.length ? given : ['shared', 'account-kit', 'desktop']).map((d) => resolve(d));
  const root = given.length ? resolve(given[0], '..') : repoRoot;
  const cycles = findCycles(runtimeGraph(given.length ? root : repoRoot, dirs)).map(
    ({ members, path }) => `${members.length} modules: ${path.map((p) => displayPath(root, p)).join(' → ')}`,
  );
  if (cycles.length) {
    console.error(`check-cycles: ${cycles.length} runtime import cycle(s) (type-only imports and import() do not count):`);
    for (const c of cycles) console.error(`  ${c}`);
    process.exit(1);
  }
  console.log(`check-cycles: no runtime import cycle in ${dirs.map((d) => displayPath(root, d)).join(', ')}`);
}
