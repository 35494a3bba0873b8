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

/** A certificate an authority signs: its subject's CN, the names it is valid for, how long. */
export interface SignedCertificateOptions {
  commonName: string;
  /** As openssl writes it: `DNS:shop.example.test`, `IP:127.0.0.1,DNS:localhost`. */
  subjectAltName: string;
  /** Days from now to its end; -1 ended a day ago (openssl's least). */
  days: number;
}

export interface TestAuthority {
  /** The authority's certificate (PEM). */
  authority: string;
  /** A key and certificate it signs. */
  sign(options: SignedCertificateOptions): Promise<{ key: string; cert: string }>;
  cleanup(): Promise<void>;
}

/** A throw-away certificate authority (openssl, P-256) in a folder of its own, signing as many certificates as asked. */
export async function testAuthority({ commonName, days }: { commonName: string; days: number }): Promise<TestAuthority> {
  const dir = await mkdtemp(join(tmpdir(), 'paneldeck-ca-'));
  const at = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const cleanup = () => rm(dir, { recursive: true, force: true, maxRetries: 5 });
  try {
    run([
      'req',
      '-x509',
      ...ec,
      '-days',
      String(days),
      '-subj',
      `/CN=${commonName}`,
      '-keyout',
      at('ca.key'),
      '-out',
      at('ca.pem'),
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
  } catch (error) {
    await cleanup();
    throw error;
  }
  let serial = 0;
  return {
    authority: await readFile(at('ca.pem'), 'utf8'),
    async sign(options) {
      if (!/^[\w.*-]+$/.test(options.commonName)) throw new Error(`testAuthority: "${options.commonName}" is not a host name`);
      const one = (suffix: string) => at(`${++serial}-${suffix}`);
      const [key, csr, ext, cert] = [one('key.pem'), one('csr.pem'), one('ext.cnf'), one('cert.pem')];
      run(['req', ...ec, '-subj', `/CN=${options.commonName}`, '-keyout', key, '-out', csr]);
      await writeFile(ext, `subjectAltName=${options.subjectAltName}\nextendedKeyUsage=serverAuth\n`);
      run([
        'x509',
        '-req',
        '-in',
        csr,
        '-CA',
        at('ca.pem'),
        '-CAkey',
        at('ca.key'),
        '-CAcreateserial',
        '-days',
        String(options.days),
        '-extfile',
        ext,
        '-out',
        cert,
      ]);
      return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
    },
    cleanup,
  };
}

/**
 * A throw-away certificate authority, and a certificate it signs for 127.0.0.1 and localhost. A
 * process that adds the authority to its default CA certificates (`tls.setDefaultCACertificates`)
 * trusts that certificate as the system trusts a public one.
 */
export async function certificateSignedByNewAuthority(commonName: string): Promise<{ authority: string; key: string; cert: string }> {
  if (!/^[\w.*-]+$/.test(commonName)) throw new Error(`certificateSignedByNewAuthority: "${commonName}" is not a host name`);
  const authority = await testAuthority({ commonName: 'Paneldeck Test Authority', days: 2 });
  try {
    const signed = await authority.sign({ commonName, subjectAltName: 'IP:127.0.0.1,DNS:localhost', days: 2 });
    return { authority: authority.authority, ...signed };
  } finally {
    await authority.cleanup();
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
