import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Throw-away self-signed certificates for 127.0.0.1 and localhost, made with openssl, and how
 * Paneldeck and an operator read them.
 */

export interface CertificateOptions {
  /** The subject's CN; default `127.0.0.1`. The names it is valid for stay 127.0.0.1 and localhost. */
  commonName?: string;
  /** How long it is valid, in days from now; default 2. */
  days?: number;
}

/** A fresh key and self-signed certificate (P-256) for 127.0.0.1 and localhost. */
export async function selfSignedCertificate(options: CertificateOptions = {}): Promise<{ key: string; cert: string }> {
  const commonName = options.commonName ?? '127.0.0.1';
  if (!/^[\w.*-]+$/.test(commonName)) throw new Error(`selfSignedCertificate: "${commonName}" is not a host name`);
  const dir = await mkdtemp(join(tmpdir(), 'paneldeck-cert-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        String(options.days ?? 2),
        '-subj',
        `/CN=${commonName}`,
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'pipe' },
    );
    return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** The SHA-256 fingerprint as Node writes it (`X509Certificate.fingerprint256`): `AB:CD:…`, 32 uppercase hex pairs. */
export function certificateFingerprint(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256;
}

export interface CertificateDescription {
  sha256: string;
  /** As Node writes it, e.g. `CN=127.0.0.1`. */
  subject: string;
  issuer: string;
  /** ISO 8601. */
  validFrom: string;
  validTo: string;
}

/** What an operator compares before trusting a certificate (the first one in `pem`). */
export function describeCertificate(pem: string): CertificateDescription {
  const certificate = new X509Certificate(pem);
  return {
    sha256: certificate.fingerprint256,
    subject: certificate.subject,
    issuer: certificate.issuer,
    validFrom: new Date(certificate.validFrom).toISOString(),
    validTo: new Date(certificate.validTo).toISOString(),
  };
}
