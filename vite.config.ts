import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { CONTENT_SECURITY_POLICY } from './electron/main/renderer-files.ts';

/**
 * The built page carries the app's CSP in a meta element too, so the policy holds however the
 * file is served (the protocol handler also sends it as a header) and audits of the HTML see it.
 * Build only: the dev server needs React's inline refresh preamble. `frame-ancestors` is left
 * out because a meta element cannot carry it (Chromium logs an error). First in <head>: a meta
 * CSP covers only the elements after it.
 */
function contentSecurityPolicyMeta(): Plugin {
  const content = CONTENT_SECURITY_POLICY.split('; ')
    .filter((directive) => !directive.startsWith('frame-ancestors'))
    .join('; ');
  return {
    name: 'paneldeck-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content }, injectTo: 'head-prepend' }],
  };
}

/**
 * The app's bundles, one mode each (`npm run build` runs them all):
 * - default: the renderer, `renderer/` to `dist/renderer/`, relative paths for the app:// protocol;
 * - `main`: the main process, ESM for Node, npm dependencies left to node_modules;
 * - `preload` and `confirm-preload`: one CommonJS file each with everything inlined, as a sandboxed
 *   preload must be.
 */
const renderer: UserConfig = {
  root: 'renderer',
  base: './',
  plugins: [react(), contentSecurityPolicyMeta()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // One modern Chromium (Electron's) runs this: no downlevelling needed.
    target: 'es2023',
    // The CSP forbids inline scripts: keep Vite from inlining anything into index.html.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // Two pages: the panel window's, and main's own confirmation of a write (renderer/confirm/).
    rollupOptions: { input: { index: 'renderer/index.html', confirm: 'renderer/confirm/confirm.html' } },
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
    // A map beside the bundle, not referenced from it and not packaged: the bundle keeps no line
    // comments, so scripts/electronegativity.ts reads `eng-disable` comments in the sources through it.
    sourcemap: 'hidden',
    rollupOptions: { output: { format: 'es', entryFileNames: 'main.js' } },
  },
};

/** A sandboxed preload is one CommonJS file with everything inlined: one build per preload, so none shares a chunk. */
function preloadBuild(entry: string, fileName: string, emptyOutDir: boolean): UserConfig {
  return {
    root: '.',
    ssr: { noExternal: true },
    build: {
      ssr: entry,
      outDir: 'dist/preload',
      emptyOutDir,
      target: 'node22',
      sourcemap: 'hidden', // as for main
      rollupOptions: { external: ['electron'], output: { format: 'cjs', entryFileNames: fileName } },
    },
  };
}

const preload = preloadBuild('electron/preload/preload.ts', 'preload.cjs', true);
// The confirmation window's own preload (electron/main/write-confirmation.ts), built after the panel window's.
const confirmPreload = preloadBuild('electron/preload/confirm-preload.ts', 'confirm-preload.cjs', false);

const modes: Readonly<Record<string, UserConfig>> = { main, preload, 'confirm-preload': confirmPreload };

export default defineConfig(({ mode }) => modes[mode] ?? renderer);
