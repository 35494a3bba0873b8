import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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

/**
 * A throw-away certificate authority, and a certificate it signs for 127.0.0.1 and localhost. A
 * process that adds the authority to its default CA certificates (`tls.setDefaultCACertificates`)
 * trusts that certificate as the system trusts a public one.
 */
export async function certificateSignedByNewAuthority(commonName: string): Promise<{ authority: string; key: string; cert: string }> {
  if (!/^[\w.*-]+$/.test(commonName)) throw new Error(`certificateSignedByNewAuthority: "${commonName}" is not a host name`);
  const dir = await mkdtemp(join(tmpdir(), 'paneldeck-ca-'));
  const at = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  try {
    run([
      'req',
      '-x509',
      ...ec,
      '-days',
      '2',
      '-subj',
      '/CN=Paneldeck Test Authority',
      '-keyout',
      at('ca.key'),
      '-out',
      at('ca.pem'),
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    run(['req', ...ec, '-subj', `/CN=${commonName}`, '-keyout', at('key.pem'), '-out', at('csr.pem')]);
    await writeFile(at('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
    run([
      'x509',
      '-req',
      '-in',
      at('csr.pem'),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      at('ext.cnf'),
      '-out',
      at('cert.pem'),
    ]);
    const [authority, key, cert] = await Promise.all(['ca.pem', 'key.pem', 'cert.pem'].map((name) => readFile(at(name), 'utf8')));
    return { authority: authority!, key: key!, cert: cert! };
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
