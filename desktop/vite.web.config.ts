// The console's renderer built for the web: the service serves desktop/out/web at /console.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { consoleAliases } from './vite.aliases.ts';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('src/renderer'),
  base: '/console/',
  plugins: [react()],
  resolve: { alias: consoleAliases },
  build: { outDir: here('out/web'), emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1500 },
  logLevel: 'warn',
});
