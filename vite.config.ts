import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';

/**
 * The app's three bundles, one mode each (`npm run build` runs all three):
 * - default: the renderer, `renderer/` to `dist/renderer/`, relative paths for the app:// protocol;
 * - `main`: the main process, ESM for Node, npm dependencies left to node_modules;
 * - `preload`: one CommonJS file with everything inlined, as a sandboxed preload must be.
 */
const renderer: UserConfig = {
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // One modern Chromium (Electron's) runs this: no downlevelling needed.
    target: 'es2023',
    // The CSP forbids inline scripts: keep Vite from inlining anything into index.html.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
};

const main: UserConfig = {
  root: '.',
  build: {
    ssr: 'electron/main/main.ts',
    outDir: 'dist/main',
    emptyOutDir: true,
    target: 'node22',
    rollupOptions: { output: { format: 'es', entryFileNames: 'main.js' } },
  },
};

const preload: UserConfig = {
  root: '.',
  ssr: { noExternal: true },
  build: {
    ssr: 'electron/preload/preload.ts',
    outDir: 'dist/preload',
    emptyOutDir: true,
    target: 'node22',
    rollupOptions: { external: ['electron'], output: { format: 'cjs', entryFileNames: 'preload.cjs' } },
  },
};

export default defineConfig(({ mode }) => (mode === 'main' ? main : mode === 'preload' ? preload : renderer));
