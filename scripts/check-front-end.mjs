#!/usr/bin/env node
// The front-end rules of CONTRIBUTING.md ("Front-end rules"), checked on the sources (run by scripts/test.sh). No
// file is exempt: a rule that needs an exception is a rule to rewrite.
//
// Usage: node scripts/check-front-end.mjs [repository root] (default: this repository). Exit 1 on a violation.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { displayPath, importsOf, makeResolver, sourceFiles, withoutComments } from './lib/module-graph.mjs';

/** The code of a file with comments and the contents of string literals blanked out. */
function codeOnly(text) {
  return withoutComments(text).replace(/(["'`])(?:\\.|(?!\1)[^\\\n])*\1/g, (m) => m[0] + ' '.repeat(m.length - 2) + m[0]);
}

/** 1-based line of an offset. */
const lineOf = (text, index) => text.slice(0, index).split('\n').length;

/** Each match of `re` in the file's code as "path:line: what". */
function matches(root, file, text, re, what) {
  const code = codeOnly(text);
  return [...code.matchAll(re)].map((m) => `${displayPath(root, file)}:${lineOf(code, m.index)}: ${what}`);
}

export const RULES = [
  {
    name: 'the client library reads and writes the wire through its schemas’ types: no `any` in shared/src/client',
    dirs: ['shared/src/client'],
    check: (root, file, text) => matches(root, file, text, /\bany\b/g, '`any` (type it from shared/src/schemas: wire.ts)'),
  },
  {
    name: 'front-end code never imports the service: shared things live in shared/',
    dirs: ['shared/src', 'account-kit/src', 'account-kit/demo', 'desktop/src'],
    check: (root, file, text, resolveSpecifier) =>
      importsOf(text)
        .filter(({ specifier }) => {
          if (specifier === '@gatehouse/service' || specifier.startsWith('@gatehouse/service/')) return true;
          const target = resolveSpecifier(file, specifier) ?? (specifier.startsWith('.') ? resolve(dirname(file), specifier) : null);
          return target !== null && displayPath(root, target).startsWith('service/');
        })
        .map(({ specifier }) => `${displayPath(root, file)}: imports ${specifier} (move what both need into shared/)`),
  },
  {
    name: "errors are shown by the catalogue's text for their known-error code (ErrorMessage), never by their own message",
    dirs: ['account-kit/src', 'desktop/src/renderer'],
    check: (root, file, text) =>
      matches(
        root, file, text,
        /\)\s*\??\.message\b|\b(?:e|ex|err|error|errors|exception|cause|reason|thrown|\w+Error|\w+Err)\??\.message\b|\bString\(\s*(?:e|err|error)\s*\)/g,
        "an error's own text (show it with the front end's ErrorMessage: the catalogue's text for its code)",
      ),
  },
  {
    name: 'screens and components take no read themselves: data comes from named hooks (hooks/*.ts) over the client library',
    dirs: ['account-kit/src', 'desktop/src/renderer'],
    check: (root, file, text) =>
      file.endsWith('.tsx')
        ? matches(root, file, text, /\buseCachedRead\b|\buseLoader\b|\[cachedReadsSymbol\]|\.(?:adminReads|serverReads)\b/g, 'a read taken in a component (give it a named hook in hooks/)')
        : [],
  },
  {
    name: 'front-end layers point down: lib/ is pure (no React, Mantine, hooks or components), hooks/ use no components or screens',
    dirs: ['account-kit/src', 'desktop/src/renderer'],
    check: (root, file, text) => {
      const where = displayPath(root, file);
      const layer = /\/(lib|hooks)\/[^/]+$/.exec(where)?.[1];
      if (!layer) return [];
      const above = layer === 'lib'
        ? /^(react|react-dom|@mantine\/.*)$|^\.\.\/(hooks|components|screens|pages|settings|widgets|handler)\//
        : /^\.\.\/(components|screens|pages|settings|widgets|handler)\//;
      return importsOf(text)
        .filter(({ specifier }) => above.test(specifier))
        .map(({ specifier }) => `${where}: imports ${specifier} (${layer}/ sits below it: move the code, or the import)`);
    },
  },
  {
    name: 'shared/ stays free of React outside shared/src/react, and the service never loads that folder',
    dirs: ['shared/src', 'service/src'],
    check: (root, file, text, resolveSpecifier) => {
      const where = displayPath(root, file);
      if (where.startsWith('shared/src/react/')) return [];
      return importsOf(text)
        .filter(({ specifier }) => {
          if (/^react(-dom)?($|\/)/.test(specifier)) return true;
          const target = resolveSpecifier(file, specifier);
          return target !== undefined && displayPath(root, target).startsWith('shared/src/react/');
        })
        .map(({ specifier }) => `${where}: imports ${specifier} (React belongs to shared/src/react, which only front ends import)`);
    },
  },
];

export function checkFrontEnd(root) {
  const resolveSpecifier = makeResolver(root);
  const problems = [];
  for (const rule of RULES) {
    for (const file of rule.dirs.flatMap((d) => sourceFiles(join(root, d)))) {
      for (const p of rule.check(root, file, readFileSync(file, 'utf8'), resolveSpecifier)) problems.push(`${p}\n      rule: ${rule.name}`);
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const problems = checkFrontEnd(root);
  if (problems.length) {
    console.error(`check-front-end: ${problems.length} violation(s) of the front-end rules (CONTRIBUTING.md):`);
    for (const p of problems) console.error(`  ${p}`);
    process.exit(1);
  }
  console.log(`check-front-end: ${RULES.length} rules kept:`);
  for (const rule of RULES) console.log(`  ${rule.name}`);
}
