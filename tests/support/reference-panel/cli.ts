/** `npm run demo-panel`: the reference panel for trying Paneldeck by hand. */
import { parseArgs } from 'node:util';
import { certificateFingerprint, selfSignedCertificate } from '../tls-certificate.ts';
import { DEMO_USER, demoTotp, newTotpSecret, startReferencePanel, TWO_FACTOR_USER, type DemoUser, type PanelStyle } from './server.ts';

const USAGE = `Usage: npm run demo-panel -- [options]

  --style simple|easypanel|trpc  the API it speaks (default simple):
                                 easypanel = Easypanel 2.33+, trpc = Easypanel 2.30 and before
  --two-factor                   the two-factor account uses a new authenticator (TOTP) secret
                                 instead of the fixed code ${TWO_FACTOR_USER.twoFactorCode ?? ''}
  --tls                          serve https with a new self-signed certificate (needs openssl)
  --port <n>                     default 4780; 0 picks a free port
  --token-ttl <seconds>          how long a log in lasts; default 3600
  --help                         this text`;

const STYLES: readonly PanelStyle[] = ['simple', 'easypanel', 'trpc'];

let values: ReturnType<typeof readOptions>['values'];
try {
  ({ values } = readOptions());
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}

function readOptions() {
  return parseArgs({
    options: {
      style: { type: 'string', default: 'simple' },
      'two-factor': { type: 'boolean', default: false },
      tls: { type: 'boolean', default: false },
      port: { type: 'string', default: '4780' },
      'token-ttl': { type: 'string', default: '3600' },
      help: { type: 'boolean', default: false },
    },
  });
}

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const style = values.style as PanelStyle;
const port = Number(values.port);
const ttlSeconds = Number(values['token-ttl']);
if (!STYLES.includes(style)) {
  console.error(`--style must be one of ${STYLES.join(', ')}.`);
  process.exit(2);
}
if (!Number.isInteger(port) || port < 0 || port > 65535 || !(ttlSeconds > 0)) {
  console.error('--port must be a port number (0-65535) and --token-ttl a number of seconds above 0.');
  process.exit(2);
}

let tls: { key: string; cert: string } | undefined;
if (values.tls) {
  try {
    tls = await selfSignedCertificate();
  } catch (error) {
    console.error(`Could not make a certificate with openssl (is it installed?): ${String(error)}`);
    process.exit(1);
  }
}

const totpSecret = values['two-factor'] ? newTotpSecret() : undefined;
const { twoFactorCode: _fixedCode, ...guarded } = TWO_FACTOR_USER;
const twoFactorUser: DemoUser = totpSecret === undefined ? TWO_FACTOR_USER : { ...guarded, totpSecret };

try {
  const panel = await startReferencePanel({
    style,
    port,
    tokenTtlMs: ttlSeconds * 1000,
    users: [DEMO_USER, twoFactorUser],
    ...(tls ? { tls } : {}),
  });
  const lines = [
    `Demo panel (${style} API) listening on ${panel.url} (API at ${panel.baseUrl})`,
    `  In Paneldeck, add a panel with the address: ${panel.url}`,
  ];
  if (tls) {
    lines.push(
      `  Self-signed certificate, SHA-256 fingerprint:`,
      `    ${certificateFingerprint(tls.cert)}`,
      `  Trust it in Paneldeck only if the fingerprint shown there is this one.`,
    );
  }
  lines.push(`  Log in with: ${DEMO_USER.email} / ${DEMO_USER.password}`);
  if (totpSecret === undefined) {
    lines.push(`  Two-factor log in: ${TWO_FACTOR_USER.email} / ${TWO_FACTOR_USER.password}, code ${TWO_FACTOR_USER.twoFactorCode ?? ''}`);
  } else {
    const totp = demoTotp(totpSecret, TWO_FACTOR_USER.email);
    lines.push(
      `  Two-factor log in: ${TWO_FACTOR_USER.email} / ${TWO_FACTOR_USER.password}, code from an authenticator app:`,
      `    add this URI (or type the secret ${totpSecret}):`,
      `    ${totp.toString()}`,
      `    code right now, without a phone: ${totp.generate()} (changes every 30 s)`,
    );
  }
  lines.push(`  Tokens expire after ${ttlSeconds} s. Press Ctrl+C to stop.`);
  console.log(lines.join('\n'));
  const stop = () => void panel.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  const code = (error as { code?: string }).code;
  console.error(code === 'EADDRINUSE' ? `Port ${port} is in use: try --port 0 for a free one.` : `Could not start: ${String(error)}`);
  process.exit(1);
}
