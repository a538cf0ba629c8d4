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
  build: { outDir: here('dist'), emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 700 },
  logLevel: 'warn',
});
