import { defineConfig } from 'vite';

/**
 * The renderer's build: `renderer/` to `dist/renderer/`, loaded by the app from its own protocol,
 * hence relative asset paths. The main and preload bundles join this file with the app shell.
 */
export default defineConfig({
  root: 'renderer',
  base: './',
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // One modern Chromium (Electron's) runs this: no downlevelling needed.
    target: 'es2023',
  },
  server: { host: '127.0.0.1', strictPort: true },
});
