// electron-vite build of the owner console (desktop/): main process, preload and renderer into desktop/out/.
// At the repository root because the design card says so; every path points into desktop/.
// Main is ESM (the root package is "type": "module"); the preload is a single CommonJS file because a sandboxed
// renderer (sandbox: true) cannot load an ESM preload.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { consoleAliases } from './desktop/vite.aliases.ts';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  main: {
    build: {
      outDir: here('desktop/out/main'),
      rollupOptions: { input: { index: here('desktop/src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: here('desktop/out/preload'),
      externalizeDeps: false,
      rollupOptions: {
        input: { index: here('desktop/src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', inlineDynamicImports: true },
      },
    },
  },
  renderer: {
    root: here('desktop/src/renderer'),
    base: './',
    plugins: [react()],
    resolve: { alias: consoleAliases },
    build: {
      outDir: here('desktop/out/renderer'),
      minify: true,
      chunkSizeWarningLimit: 1500,
      rollupOptions: { input: { index: here('desktop/src/renderer/index.html') } },
    },
  },
});
