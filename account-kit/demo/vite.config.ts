// The demo app: built with Vite against the account kit's public entry (aliased to its source, so the demo
// uses exactly what the package exports). The service serves demo/dist at its root.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^@gatehouse\/account-kit$/, replacement: here('../src/index.ts') },
      { find: /^@gatehouse\/account-kit\/styles\.css$/, replacement: here('../src/styles.css') },
    ],
  },
  build: {
    outDir: here('dist'), emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // Everything the entry imports statically in one chunk. Left to itself, rolldown cut the modules the entry
        // shares with the lazy pages into some thirty small chunks (Text, Group, Stack, the API client...), each
        // compressed on its own: the sign-in page needed 135.6 KB of gzipped JavaScript in 35 files, against the
        // 130 KB budget (issue 9); in one chunk the same code is 125.6 KB in 12 files (issue 25). The lazy pages
        // import that chunk, which the first page has loaded anyway.
        codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] },
      },
    },
  },
  logLevel: 'warn',
});
