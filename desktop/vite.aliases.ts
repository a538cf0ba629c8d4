// The account kit from its source (as its demo does), so the console uses exactly what the package exports.
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export const consoleAliases = [
  { find: /^@gatehouse\/account-kit$/, replacement: here('../account-kit/src/index.ts') },
  { find: /^@gatehouse\/account-kit\/styles\.css$/, replacement: here('../account-kit/src/styles.css') },
];
