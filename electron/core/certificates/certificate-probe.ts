import { isIP } from 'node:net';
import { checkServerIdentity, connect, type PeerCertificate } from 'node:tls';

/**
 * One website's certificate, read by a TLS handshake alone: the host is named by SNI, the
 * certificate is taken whatever it is (expired, self-signed, for another name: that is what the
 * operator must see), and the connection is closed the moment the handshake ends. Nothing is
 * written on it, no HTTP request and nothing of a panel's (no token).
 */

/** Where a domain is reached: the app connects to the host itself on 443; tests map hosts to loopback servers. */
export interface DomainAddress {
  address: string;
  port: number;
}

export type ResolveDomain = (host: string) => DomainAddress | Promise<DomainAddress>;

/** What the handshake got: the certificate's end, and what is wrong in words. */
export interface ProbedCertificate {
  validTo: string | null;
  problem: string | null;
}

/** The app's own way to a domain: the host itself, on the port browsers use. */
export const DIRECT: ResolveDomain = (host) => ({ address: host, port: 443 });

/** The chain's verdicts that have words of their own; any other is named by its code. */
const CHAIN_PROBLEMS: Readonly<Record<string, string>> = {
  CERT_HAS_EXPIRED: 'The certificate has expired',
  CERT_NOT_YET_VALID: 'The certificate is not valid yet',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'The certificate is self-signed: browsers do not trust it',
  SELF_SIGNED_CERT_IN_CHAIN: 'The certificate is issued by an authority browsers do not trust',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'The certificate is issued by an authority browsers do not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'The certificate chain is incomplete or not trusted',
  CERT_REVOKED: 'The certificate was revoked',
};

/** The handshake's failures that have words of their own. */
function connectionProblem(host: string, { address, port }: DomainAddress, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The name ${host} does not resolve`;
    case 'ECONNREFUSED':
      return `Nothing answers on port ${port} at ${address}`;
    case 'ECONNRESET':
      return 'The server closed the connection during the TLS handshake';
    default:
      return `The TLS handshake failed (${error.code ?? error.message})`.slice(0, 200);
  }
}

/** Reads `host`'s certificate at `target`, within `timeoutMs`; never rejects. */
export function probeCertificate(host: string, target: DomainAddress, timeoutMs: number): Promise<ProbedCertificate> {
  return new Promise((resolve) => {
    let settled = false;
    const socket = connect({
      host: target.address,
      port: target.port,
      // SNI takes names only: an IP address is sent none, as browsers do.
      ...(isIP(host) === 0 ? { servername: host } : {}),
      // Read the certificate whatever it is: its faults are reported, not refused.
      rejectUnauthorized: false,
    });
    const finish = (result: ProbedCertificate) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        finish({
          validTo: null,
          problem: `No TLS answer within ${(timeoutMs / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} s`,
        }),
      timeoutMs,
    );
    socket.once('secureConnect', () => {
      const certificate = socket.getPeerCertificate();
      if (!certificate || Object.keys(certificate).length === 0) {
        finish({ validTo: null, problem: 'The server presented no certificate' });
        return;
      }
      finish({ validTo: validToOf(certificate), problem: judged(host, certificate, socket.authorizationError) });
    });
    socket.once('error', (error) => finish({ validTo: null, problem: connectionProblem(host, target, error) }));
  });
}

function validToOf(certificate: PeerCertificate): string | null {
  const at = Date.parse(certificate.valid_to);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

/** What is wrong with the certificate for `host`: the name first (the chain's check stops before it), then the chain. */
function judged(host: string, certificate: PeerCertificate, chainError: Error | string | undefined): string | null {
  const problems: string[] = [];
  if (checkServerIdentity(host, certificate) !== undefined) problems.push(`The certificate is not valid for ${host}`);
  // The name's own verdict is said above, in words: the chain's is the other faults.
  if (
    chainError &&
    chainError !== 'ERR_TLS_CERT_ALTNAME_INVALID' &&
    (chainError as NodeJS.ErrnoException).code !== 'ERR_TLS_CERT_ALTNAME_INVALID'
  ) {
    const code = typeof chainError === 'string' ? chainError : ((chainError as NodeJS.ErrnoException).code ?? chainError.message);
    problems.push(CHAIN_PROBLEMS[code] ?? `The certificate is not trusted (${code})`);
  }
  return problems.length > 0 ? `${problems.join('. ')}.` : null;
}
