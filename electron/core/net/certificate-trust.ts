import { X509Certificate } from 'node:crypto';
import { PanelError, type CertificateInfo } from '../../../shared/contract/errors.ts';

/**
 * Trust on first use. A panel with a certificate the system does not trust (self-signed, from an
 * internal authority, for an IP address) is refused with the certificate's description; once the
 * operator trusts it for that panel, the panel is accepted with exactly that certificate and no
 * other, whoever issued it. The decision is made before any request is sent on the connection,
 * so a refused connection never carries a password or a token.
 */

/** What the TLS layer saw: the certificate, and whether the system trusts it for this host. */
export interface PresentedCertificate {
  certificate: CertificateInfo;
  /** Trusted by the system's authorities and valid for the host name. */
  systemTrusted: boolean;
  /** Why the system does not trust it (OpenSSL's or Chromium's code), for the message. */
  systemReason: string | null;
}

/** Why a connection was refused: carried by the fetch's error to the core, which words it. */
export class CertificateRejection extends Error {
  readonly kind: 'untrusted' | 'changed';
  readonly presented: PresentedCertificate;
  /** The fingerprint trusted for the panel, when the rejection is a changed certificate. */
  readonly trusted: string | null;

  constructor(kind: 'untrusted' | 'changed', presented: PresentedCertificate, trusted: string | null) {
    super(kind === 'untrusted' ? 'The server certificate is not trusted.' : 'The server certificate changed.');
    this.name = 'CertificateRejection';
    this.kind = kind;
    this.presented = presented;
    this.trusted = trusted;
  }
}

/**
 * Accepts a connection (null) or says why not. With a trusted certificate for the panel only
 * that exact certificate is accepted; without one, only what the system trusts.
 */
export function judgeCertificate(presented: PresentedCertificate, trustedSha256: string | null): CertificateRejection | null {
  if (trustedSha256 !== null) {
    return presented.certificate.sha256 === trustedSha256 ? null : new CertificateRejection('changed', presented, trustedSha256);
  }
  return presented.systemTrusted ? null : new CertificateRejection('untrusted', presented, null);
}

/** The description of a DER or PEM certificate, as the operator compares it. */
export function describeCertificate(encoded: Buffer | string): CertificateInfo {
  const certificate = new X509Certificate(encoded);
  return {
    sha256: certificate.fingerprint256.toUpperCase(),
    subject: oneLine(certificate.subject),
    issuer: oneLine(certificate.issuer),
    validFrom: isoDate(certificate.validFrom),
    validTo: isoDate(certificate.validTo),
  };
}

/** OpenSSL's multi-line distinguished name ("C=DE\nCN=panel") as one line, capped for the window. */
function oneLine(name: string): string {
  const line = name
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

function isoDate(text: string): string {
  const time = Date.parse(text);
  return Number.isNaN(time) ? text.slice(0, 64) : new Date(time).toISOString();
}

/** The operator's error for a rejected certificate at `host`. */
export function certificateError(rejection: CertificateRejection, host: string): PanelError {
  const { certificate } = rejection.presented;
  if (rejection.kind === 'changed') {
    return new PanelError(
      'CERTIFICATE_CHANGED',
      `${host} now presents another certificate than the one you trusted for this panel ` +
        `(trusted SHA-256 ${rejection.trusted}, now ${certificate.sha256}). Paneldeck did not send your password or token. ` +
        'A renewed certificate does this, and so does someone intercepting the connection: ask whoever runs the panel ' +
        'whether the certificate was replaced, and trust the new one only if it was.',
      { cause: rejection, certificate },
    );
  }
  const why = describeSystemReason(rejection.presented.systemReason);
  return new PanelError(
    'CERTIFICATE_UNTRUSTED',
    `This computer does not trust the certificate of ${host}${why ? ` (${why})` : ''}. Paneldeck did not send your password or token. ` +
      "If the panel uses its own certificate, compare this fingerprint with the panel's (on the server: " +
      'openssl x509 -noout -fingerprint -sha256 -in <certificate file>), and trust it for this panel only if they match.',
    { cause: rejection, certificate },
  );
}

function describeSystemReason(reason: string | null): string | null {
  if (!reason) return null;
  if (/SELF_SIGNED|DEPTH_ZERO/i.test(reason)) return 'it is self-signed';
  if (/EXPIRED|DATE_INVALID|NOT_YET_VALID/i.test(reason)) return 'it has expired or is not valid yet';
  if (/ALTNAME|COMMON_NAME|NAME_INVALID/i.test(reason)) return 'it was issued for another name';
  if (/ISSUER|AUTHORITY|UNABLE_TO_VERIFY|LEAF_SIGNATURE/i.test(reason)) return 'its issuer is not a trusted authority';
  return null;
}

/** The rejection somewhere in an error's cause chain, if any. */
export function findCertificateRejection(error: unknown): CertificateRejection | null {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Object; depth++) {
    if (current instanceof CertificateRejection) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
