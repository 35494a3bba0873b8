import { isIPv4, isIPv6 } from 'node:net';
import { domainToUnicode } from 'node:url';
import { PanelError } from '../../../shared/contract/errors.ts';

/** A panel address as the core keeps it. */
export interface NormalisedAddress {
  /** `https://<host[:port]>/api`, or `http://` for a loopback host. */
  baseUrl: string;
  /** What an operator reads: Unicode host, port when not the default, scheme only for http. */
  display: string;
}

const API_PATH = '/api';

function invalid(message: string): never {
  throw new PanelError('INVALID_INPUT', message);
}

/**
 * Turns what an operator pastes (`panel.example.com`, `https://Panel.example.com/api/`,
 * `[::1]:8443`, an IDN domain) into the panel's API base URL, or refuses it with a message
 * that says what to fix. Throws only `PanelError('INVALID_INPUT')`.
 */
export function normaliseAddress(input: string, { allowPlainHttp = false }: AddressOptions = {}): NormalisedAddress {
  return remembered(addresses, allowPlainHttp ? `\u0001${input}` : input, () =>
    Object.freeze(canonicalBaseUrl(input, allowPlainHttp) ?? parseAddress(input, allowPlainHttp)),
  );
}

export interface AddressOptions {
  /**
   * Accept `http://` for a host that is not this computer: the operator's explicit choice for a
   * panel without TLS (a fresh installation on `http://<ip>:3000`). Loopback is accepted anyway.
   */
  allowPlainHttp?: boolean;
}

/**
 * A base URL exactly as `parseAddress` writes it, read without the URL parser: at start every
 * panel's stored base URL is checked, and for ten thousand panels the parser took longer than
 * reading the files. Only plain forms take this path (a lower-case ASCII domain, or a dotted
 * IPv4 address, and for http:// a loopback one); anything else, IDN and IPv6 included, returns
 * null and goes through `parseAddress`. A test checks both paths agree.
 */
function canonicalBaseUrl(input: string, allowPlainHttp: boolean): NormalisedAddress | null {
  const match = /^(https?):\/\/([a-z0-9._-]{1,253})(?::([1-9]\d{0,4}))?\/api$/.exec(input);
  if (!match) return null;
  const [, scheme, host = '', port] = match;
  if (port !== undefined && (Number(port) > 65535 || (scheme === 'https' && port === '443') || (scheme === 'http' && port === '80')))
    return null;
  const labels = host.split('.');
  const ipv4 = labels.length === 4 && labels.every((label) => /^(0|[1-9]\d{0,2})$/.test(label) && Number(label) <= 255);
  if (!ipv4) {
    // The URL parser reads a host ending in a number as an IPv4 address in another notation.
    if (/^(\d+|0x[0-9a-f]*)$/.test(labels.at(-1) ?? '') || host.includes('xn--')) return null;
    if (!labels.every((label) => label.length <= 63 && /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/.test(label))) return null;
  }
  if (scheme === 'http' && !allowPlainHttp && !isLoopback(host)) return null;
  const portPart = port === undefined ? '' : `:${port}`;
  return { baseUrl: input, display: `${scheme === 'http' ? 'http://' : ''}${host}${portPart}` };
}

/**
 * Answers remembered by input: loading ten thousand panels checks each address and login path
 * (nearly all the same) once, not once per use. Refusals are not remembered; they throw.
 */
const addresses = new Map<string, NormalisedAddress>();
const apiPaths = new Map<string, string>();
const REMEMBERED = 50_000;

function remembered<T>(memory: Map<string, T>, input: string, work: () => T): T {
  const known = memory.get(input);
  if (known !== undefined) return known;
  const result = work();
  if (memory.size >= REMEMBERED) memory.clear();
  memory.set(input, result);
  return result;
}

function parseAddress(input: string, allowPlainHttp: boolean): NormalisedAddress {
  // Pasted text often carries a trailing newline or spaces at the ends: those are noise.
  const text = input.trim();
  if (text === '') invalid('Enter the panel address, for example panel.example.com.');
  if (/\s/u.test(text)) invalid('The address cannot contain spaces.');
  if (/\p{Cc}/u.test(text)) invalid('The address cannot contain control characters.');

  const withScheme = addScheme(text);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(withScheme)?.[1]?.toLowerCase();
  if (scheme !== 'https' && scheme !== 'http') {
    invalid(`The address must start with https:// (not ${scheme ?? 'this'}://).`);
  }
  // The URL parser drops an empty "?" or "#", so look at the text itself.
  if (withScheme.includes('?')) invalid('Remove the query ("?…") from the address.');
  if (withScheme.includes('#')) invalid('Remove the fragment ("#…") from the address.');
  if (withScheme.includes('\\')) invalid('The address cannot contain backslashes.');
  const authority = withScheme.slice(scheme.length + 3).split('/')[0] ?? '';
  if (authority.includes('@')) {
    invalid('Remove the user name ("user@") from the address: log in with the form instead.');
  }

  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    invalid(`"${shorten(text)}" is not a valid address. Use a domain or IP address, for example panel.example.com.`);
  }
  if (url.hostname === '') invalid('The address has no host name.');

  const path = url.pathname.replace(/\/+$/, '').toLowerCase();
  if (path !== '' && path !== API_PATH) {
    invalid(`Remove the path "${shorten(url.pathname)}": give only the panel's domain (its API is always at /api).`);
  }

  const host = validateHost(url.hostname);
  const loopback = isLoopback(host);
  if (scheme === 'http' && !loopback && !allowPlainHttp) {
    invalid(
      'Use https:// for this address. Plain http:// is accepted only for this computer (localhost, 127.0.0.1, ::1), ' +
        'or when you choose "Allow unencrypted HTTP" for this panel.',
    );
  }

  const port = url.port === '' ? '' : `:${url.port}`;
  const hostForUrl = isIPv6(host) ? `[${host}]` : host;
  const baseUrl = `${scheme}://${hostForUrl}${port}${API_PATH}`;
  const displayHost = isIPv6(host) ? hostForUrl : domainToUnicode(host) || host;
  const display = `${scheme === 'http' ? 'http://' : ''}${displayHost}${port}`;
  return { baseUrl, display };
}

/** Adds `https://` unless the text names a scheme; a bare IPv6 address gets its brackets. */
function addScheme(text: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  if (isIPv6(text)) return `https://[${text}]`;
  // "mailto:x" or "javascript:…" would otherwise read as a host with a bad port.
  const bareScheme = /^([a-z][a-z0-9+.-]*):(?!\d)/i.exec(text)?.[1];
  if (bareScheme) invalid(`The address must start with https:// (not ${bareScheme}:).`);
  return `https://${text}`;
}

/** Returns the host without brackets and trailing dot, or refuses a malformed domain. */
function validateHost(hostname: string): string {
  if (hostname.startsWith('[')) return hostname.slice(1, -1);
  if (isIPv4(hostname)) return hostname;
  const host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (host.length > 253) invalid('The domain name is too long (253 characters at most).');
  for (const label of host.split('.')) {
    if (label === '') invalid(`"${shorten(hostname)}" has an empty part between dots.`);
    if (label.length > 63) invalid('A part of the domain name is longer than 63 characters.');
    // Underscores are not valid in host names but do occur on internal networks.
    if (!/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/.test(label)) {
      invalid(`"${shorten(hostname)}" is not a valid domain name.`);
    }
  }
  return host;
}

export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIPv4(host) && host.startsWith('127.');
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

export const DEFAULT_LOGIN_PATH = '/login';

/** Which of a panel's paths: the log in (email and password go there) or the session read (the token). */
export type ApiPathKind = 'login' | 'session' | 'route';

/**
 * Checks a path set by the operator (`login`, `/auth/login`, `/v1/users.login`, `/getSession`); it
 * is appended to the base URL and must stay a plain path under it. `null` or empty means
 * `fallback`, the generation's default.
 */
export function normaliseApiPath(input: string | null, kind: ApiPathKind, fallback: string): string {
  return remembered(apiPaths, `${kind} ${fallback} ${input ?? ''}`, () => parseApiPath(input, kind, fallback));
}

export function normaliseLoginPath(input: string | null, fallback = DEFAULT_LOGIN_PATH): string {
  return normaliseApiPath(input, 'login', fallback);
}

function parseApiPath(input: string | null, kind: ApiPathKind, fallback: string): string {
  const text = (input ?? '').trim();
  if (text === '') return fallback;
  const path = text.startsWith('/') ? text : `/${text}`;
  validateApiPath(path, kind);
  // The same rule requestLogIn and requestSession apply with the panel's own base, here with a stand-in one.
  resolveApiUrl('https://panel.invalid/api', path, kind);
  return path;
}

/**
 * The URL a request goes to: `baseUrl` + `path`, refused (`INVALID_INPUT`) unless it is a path
 * normaliseApiPath accepts and resolves under the panel's API. Checked again when a request is
 * sent, because the password or token goes there and panels.json may have been edited by hand
 * since the path was accepted.
 */
export function apiUrl(baseUrl: string, path: string, kind: ApiPathKind): string {
  const label = PATH_LABEL[kind];
  try {
    if (!path.startsWith('/')) invalid(`The ${label} must start with "/".`);
    validateApiPath(path, kind);
    return resolveApiUrl(baseUrl, path, kind);
  } catch (error) {
    if (!(error instanceof PanelError)) throw error;
    const what = kind === 'login' ? 'your email and password were not sent' : 'your token was not sent';
    throw new PanelError(
      'INVALID_INPUT',
      `The ${label} saved for this panel is refused, so ${what}: ${error.message} ` +
        `Set the ${label} again under Advanced in the panel settings.`,
    );
  }
}

export function loginUrl(baseUrl: string, loginPath: string): string {
  return apiUrl(baseUrl, loginPath, 'login');
}

const PATH_LABEL: Record<ApiPathKind, string> = { login: 'login path', session: 'session path', route: 'API route' };

/** Encoded forms of ".", "/" and "\\", also encoded again ("%252e"), which servers may decode. */
const ENCODED_DOT = /%(?:25)*2e/gi;
const ENCODED_SEPARATOR = /%(?:25)*(?:2f|5c)/i;

function validateApiPath(path: string, kind: ApiPathKind): void {
  const label = PATH_LABEL[kind];
  const example = kind === 'login' ? '/auth/login' : '/getSession';
  if (/[?#]/.test(path)) invalid(`The ${label} cannot contain "?" or "#": give only the path, like ${example}.`);
  if (/^\/\//.test(path)) invalid(`The ${label} must not start with "//".`);
  if (!/^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]+$/.test(path)) {
    invalid(`The ${label} may contain only letters, digits and - . _ ~ / and similar URL characters, no spaces.`);
  }
  // "%2e%2e" is ".." to the URL parser and to servers, "..;x" is ".." to some (Tomcat): either
  // would take the password or token out of /api to another application on the same host.
  const isDotSegment = (segment: string) => ['.', '..'].includes(segment.replace(ENCODED_DOT, '.').split(';')[0] ?? '');
  if (path.split('/').some(isDotSegment)) {
    invalid(`The ${label} cannot contain "." or ".." segments, also not encoded (like %2e%2e).`);
  }
  if (ENCODED_SEPARATOR.test(path)) {
    invalid(`The ${label} cannot contain encoded slashes or backslashes (%2f, %5c): write "/" between its parts.`);
  }
}

/** `baseUrl` + `path` as the URL parser resolves it, refused unless it is under `baseUrl` + "/". */
function resolveApiUrl(baseUrl: string, path: string, kind: ApiPathKind): string {
  let base: URL;
  let url: URL;
  try {
    base = new URL(baseUrl);
    url = new URL(`${baseUrl}${path}`);
  } catch {
    invalid(`The ${PATH_LABEL[kind]} does not make a valid address with the panel address.`);
  }
  if (!isUnderApi(url, base) || url.search !== '' || url.hash !== '') {
    invalid(`The ${PATH_LABEL[kind]} leads outside the panel's API (${apiRoot(base)}).`);
  }
  return url.href;
}

/** The API base's path with one trailing slash: what every URL sent to the panel must start with. */
function apiRoot(base: URL): string {
  return `${base.pathname.replace(/\/+$/, '')}/`;
}

/**
 * Whether `url` is on the API base's origin and under its path (the URL parser has resolved any
 * dot segments): configured paths and followed redirects alike must be.
 */
export function isUnderApi(url: URL, base: URL): boolean {
  return url.origin === base.origin && url.pathname.startsWith(apiRoot(base));
}

/** For the test that checks the quick path against the full parse. */
export const canonicalBaseUrlForTests = canonicalBaseUrl;
export const normaliseAddressUncachedForTests = parseAddress;
