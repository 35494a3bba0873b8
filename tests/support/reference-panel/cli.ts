/** `npm run demo-panel`: the reference panel for trying Paneldeck by hand. */
import { parseArgs } from 'node:util';
import { certificateFingerprint, selfSignedCertificate } from '../tls-certificate.ts';
import {
  DEFAULT_VERSIONS,
  DEMO_USER,
  type DemoUser,
  demoTotp,
  describeRoutes,
  describeServices,
  STYLE_SERVERS,
  newTotpSecret,
  PANEL_STYLES,
  type PanelStyle,
  startReferencePanel,
  TWO_FACTOR_USER,
} from './server.ts';

const USAGE = `Usage: npm run demo-panel -- [options]

  --style <name>             the API it speaks (default simple), one name per Easypanel generation,
                             or simple, which is none:
                               simple     the demo panel's own minimal API (POST /api/login, GET /api/getSession)
                               trpc       Easypanel 2.30 and before: tRPC at /api/trpc/<ns>.<proc>
                               rpc        Easypanel 2.31 and 2.32: the RPC layer at /api/rpc/<ns>/<proc>,
                                          and tRPC for writes only (its GETs are refused with 405)
                               public     Easypanel 2.33 and later, its public API: /api/<name> (/api/login, /api/getSession),
                                          and the older RPC and tRPC routes as 2.31-2.32 answer them
  --version <x.y.z>          the version it reports (update.getStatus, /api/getUpdateStatus); default
                             ${DEFAULT_VERSIONS.trpc} (trpc), ${DEFAULT_VERSIONS.rpc} (rpc), ${DEFAULT_VERSIONS.public} (public). It does not change the API.
  --token-ttl <seconds>      how long a log in lasts; default 3600 (simple), 86400 (Easypanel styles)
  --remember-me-ttl <seconds>  how long a log in with rememberMe lasts (Easypanel styles); default 2592000 (30 days)
  --api-token                also print a long-lived API token for ${DEMO_USER.email} (never expires)
  --log-in-limit <n>         at most n log ins a minute, then 429 TOO_MANY_REQUESTS with data.reset
  --two-factor               the two-factor account uses a new authenticator (TOTP) secret
                             instead of the fixed code ${TWO_FACTOR_USER.twoFactorCode ?? ''}
  --projects <n>             how many demo projects it holds (Easypanel styles; default 3), four
                             services each, of every type; a few stopped, down or disabled
  --tls                      serve https with a new self-signed certificate (needs openssl)
  --port <n>                 default 4780; 0 picks a free port
  --help                     this text`;

function readOptions() {
  return parseArgs({
    options: {
      style: { type: 'string', default: 'simple' },
      version: { type: 'string' },
      'token-ttl': { type: 'string' },
      'remember-me-ttl': { type: 'string' },
      'api-token': { type: 'boolean', default: false },
      'log-in-limit': { type: 'string' },
      'two-factor': { type: 'boolean', default: false },
      projects: { type: 'string' },
      tls: { type: 'boolean', default: false },
      port: { type: 'string', default: '4780' },
      help: { type: 'boolean', default: false },
    },
  });
}

function refuse(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

let values: ReturnType<typeof readOptions>['values'];
try {
  ({ values } = readOptions());
} catch (error) {
  refuse((error as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

/** A number above 0 from an option (`whole`: an integer), or undefined when it was not given. */
function positive(name: string, text: string | undefined, whole = false): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value))) {
    refuse(`--${name} must be a ${whole ? 'whole ' : ''}number above 0.`);
  }
  return value;
}

const style = values.style as PanelStyle;
if (!PANEL_STYLES.includes(style)) refuse(`--style must be one of ${PANEL_STYLES.join(', ')}.`);
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) refuse('--port must be a port number (0-65535).');
const ttlSeconds = positive('token-ttl', values['token-ttl']) ?? (style === 'simple' ? 3600 : 86_400);
const rememberSeconds = positive('remember-me-ttl', values['remember-me-ttl']);
const logInsPerMinute = positive('log-in-limit', values['log-in-limit'], true);
const projects = values.projects === undefined ? 3 : Number(values.projects);
if (!Number.isInteger(projects) || projects < 0 || projects > 10_000) refuse('--projects must be a whole number from 0 to 10000.');
const easypanelOnly = (['version', 'remember-me-ttl', 'api-token', 'log-in-limit', 'projects'] as const).filter(
  (name) => values[name] !== undefined && values[name] !== false,
);
if (style === 'simple' && easypanelOnly.length > 0) {
  refuse(`${easypanelOnly.map((name) => `--${name}`).join(', ')}: only for the Easypanel styles (--style trpc, rpc or public).`);
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
    ...(rememberSeconds === undefined ? {} : { rememberMeTtlMs: rememberSeconds * 1000 }),
    ...(values.version === undefined ? {} : { version: values.version }),
    ...(logInsPerMinute === undefined ? {} : { logInLimit: { attempts: logInsPerMinute, windowMs: 60_000 } }),
    ...(tls ? { tls } : {}),
    ...(style === 'simple' ? {} : { demoProjects: projects }),
  });
  const version = panel.version();
  const lines = [
    `Demo panel: ${STYLE_SERVERS[style].label}${version === null ? '' : `, reporting version ${version}`}`,
    `  Listening on ${panel.url} (API at ${panel.baseUrl})`,
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
  if (values['api-token']) lines.push(`  API token of ${DEMO_USER.email} (never expires): ${panel.createApiToken(DEMO_USER)}`);
  const lifetimes = style === 'simple' ? '' : `, with rememberMe after ${rememberSeconds ?? 30 * 86_400} s`;
  lines.push(`  Log ins last ${ttlSeconds} s${lifetimes}.`);
  if (logInsPerMinute !== undefined) lines.push(`  At most ${logInsPerMinute} log ins a minute.`);
  if (style !== 'simple') lines.push('  Projects and services:', ...describeServices(panel.services).map((line) => `    ${line}`));
  lines.push('  Routes:', ...describeRoutes(style, '/login', version).map((route) => `    ${route}`), '  Press Ctrl+C to stop.');
  console.log(lines.join('\n'));
  const stop = () => void panel.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  const code = (error as { code?: string }).code;
  console.error(code === 'EADDRINUSE' ? `Port ${port} is in use: try --port 0 for a free one.` : `Could not start: ${String(error)}`);
  process.exit(1);
}
