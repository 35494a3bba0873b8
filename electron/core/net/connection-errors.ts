import { PanelError } from '../../../shared/contract/errors.ts';
import { certificateError, findCertificateRejection } from './certificate-trust.ts';

/**
 * Turns a failed fetch into an error an operator can act on. Node's fetch puts a code such as
 * `ECONNREFUSED` on the error's `cause`; Chromium's network stack (the app's fetch over
 * `net.request`, or `net.fetch`) says `net::ERR_…` in the message.
 */
export function describeConnectionFailure(error: unknown, url: URL): PanelError {
  const rejection = findCertificateRejection(error);
  if (rejection) return certificateError(rejection, url.host);
  const { codes, text } = collectCodes(error);
  const has = (...names: string[]) => names.some((name) => codes.has(name));
  const host = url.host;

  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'ERR_NAME_NOT_RESOLVED', 'ERR_NAME_RESOLUTION_FAILED')) {
    return new PanelError(
      'NETWORK',
      `Could not find ${url.hostname}: the name does not resolve (DNS lookup failed). ` +
        'Check the address for typos, and your network or VPN connection.',
      { cause: error },
    );
  }
  if (/redirect was cancelled/i.test(text)) {
    return new PanelError(
      'REDIRECT_REFUSED',
      `${host} answered with a redirect, which Paneldeck did not follow, so that your password and token go ` +
        'only to the panel you added. If the panel has moved, change its address in the panel settings.',
      { cause: error },
    );
  }
  if (has('ECONNREFUSED', 'ERR_CONNECTION_REFUSED')) {
    return new PanelError(
      'NETWORK',
      `${host} refused the connection: nothing is accepting connections on that port. ` +
        'Check the address and port, and that the panel is running.',
      { cause: error },
    );
  }
  if (has('UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT', 'ERR_CONNECTION_TIMED_OUT', 'ERR_TIMED_OUT')) {
    return new PanelError('TIMEOUT', `Connecting to ${host} timed out. Check the address, and your network, VPN or firewall.`, {
      cause: error,
    });
  }
  const tls = describeTlsProblem(codes, text);
  if (tls) {
    return new PanelError(
      'TLS',
      `The secure connection to ${host} failed: ${tls} Paneldeck does not send your password or token over it.`,
      { cause: error },
    );
  }
  if (has('ENETUNREACH', 'EHOSTUNREACH', 'ERR_ADDRESS_UNREACHABLE', 'ERR_INTERNET_DISCONNECTED', 'ERR_NETWORK_CHANGED')) {
    return new PanelError(
      'NETWORK',
      `${host} cannot be reached from this computer (no network route). Check your network or VPN connection.`,
      { cause: error },
    );
  }
  if (has('ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ERR_CONNECTION_RESET', 'ERR_CONNECTION_CLOSED', 'ERR_EMPTY_RESPONSE')) {
    return new PanelError(
      'NETWORK',
      `The connection to ${host} was closed before the panel answered. Try again; if it keeps happening, ` +
        'a proxy or firewall between you and the panel may be cutting it.',
      { cause: error },
    );
  }
  const code = [...codes].find((name) => /^[A-Z_]+$/.test(name));
  return new PanelError(
    'NETWORK',
    `Could not connect to ${host}${code ? ` (${code})` : ''}. Check the address and your network connection.`,
    { cause: error },
  );
}

function describeTlsProblem(codes: Set<string>, text: string): string | null {
  const has = (...names: string[]) => names.some((name) => codes.has(name));
  if (has('CERT_HAS_EXPIRED', 'ERR_CERT_DATE_INVALID', 'CERT_NOT_YET_VALID')) {
    return 'its certificate has expired or is not valid yet.';
  }
  if (has('ERR_TLS_CERT_ALTNAME_INVALID', 'ERR_CERT_COMMON_NAME_INVALID')) {
    return 'its certificate is for another domain name.';
  }
  if (has('DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN')) {
    return 'its certificate is self-signed, and this computer does not trust it. Install a trusted certificate on the panel, or add its certificate authority to this computer.';
  }
  if (
    has('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'ERR_CERT_AUTHORITY_INVALID')
  ) {
    return 'its certificate was issued by an authority this computer does not trust.';
  }
  if (has('ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PROTOCOL_ERROR', 'EPROTO') || /wrong version number|ssl|tls/i.test(text)) {
    return 'the server did not speak TLS as expected. Is it serving plain http on this port?';
  }
  if ([...codes].some((code) => code.startsWith('ERR_CERT_') || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_'))) {
    return 'its certificate or TLS setup was refused.';
  }
  return null;
}

/** Gathers error codes from the error, its `cause` chain, and `net::ERR_…` words in messages. */
function collectCodes(error: unknown): { codes: Set<string>; text: string } {
  const codes = new Set<string>();
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Object; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string') codes.add(code);
    if (typeof message === 'string') {
      texts.push(message);
      for (const match of message.matchAll(/net::(ERR_[A-Z_]+)/g)) if (match[1]) codes.add(match[1]);
    }
    current = cause;
  }
  return { codes, text: texts.join(' ') };
}
