/** `npm run demo-panel`: the reference panel for trying Paneldeck by hand. */
import { parseArgs } from 'node:util';
import { DEMO_USER, startReferencePanel, TWO_FACTOR_USER } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4780' },
    'token-ttl': { type: 'string', default: '3600' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log('Usage: npm run demo-panel -- [--port 4780] [--token-ttl <seconds>]');
  process.exit(0);
}
const port = Number(values.port);
const ttlSeconds = Number(values['token-ttl']);
if (!Number.isInteger(port) || port < 0 || port > 65535 || !(ttlSeconds > 0)) {
  console.error('--port must be a port number (0-65535) and --token-ttl a number of seconds above 0.');
  process.exit(2);
}

try {
  const panel = await startReferencePanel({ port, tokenTtlMs: ttlSeconds * 1000, users: [DEMO_USER, TWO_FACTOR_USER] });
  console.log(`Demo panel listening on ${panel.url} (API at ${panel.baseUrl})`);
  console.log(`  In Paneldeck, add a panel with the address: ${panel.url}`);
  console.log(`  Log in with: ${DEMO_USER.email} / ${DEMO_USER.password}`);
  console.log(`  Two-factor log in: ${TWO_FACTOR_USER.email} / ${TWO_FACTOR_USER.password}, code ${TWO_FACTOR_USER.twoFactorCode ?? ''}`);
  console.log(`  Tokens expire after ${ttlSeconds} s. Press Ctrl+C to stop.`);
  const stop = () => void panel.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  const code = (error as { code?: string }).code;
  console.error(code === 'EADDRINUSE' ? `Port ${port} is in use: try --port 0 for a free one.` : `Could not start: ${String(error)}`);
  process.exit(1);
}
