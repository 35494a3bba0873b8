import { spawn } from 'node:child_process';
import { build, createServer } from 'vite';

/**
 * `npm run dev`: the renderer from Vite's dev server with hot reload, main and preload built
 * once, and Electron pointed at the dev server. Changes to main or preload need a restart.
 */
const configFile = 'vite.config.ts';
await build({ configFile, mode: 'main', logLevel: 'warn' });
await build({ configFile, mode: 'preload', logLevel: 'warn' });
const server = await createServer({ configFile });
await server.listen();
const url = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/';
console.log(`Renderer dev server at ${url}`);

const electron = spawn('npx', ['electron', '.'], { stdio: 'inherit', env: { ...process.env, PANELDECK_DEV_SERVER_URL: url } });
electron.on('exit', (code) => {
  void server.close().then(() => process.exit(code ?? 0));
});
