import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers.ts';

/** A throw-away self-signed certificate for 127.0.0.1, made with openssl. */
export async function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  const dir = await tempDir('paneldeck-cert-');
  try {
    const key = join(dir.path, 'key.pem');
    const cert = join(dir.path, 'cert.pem');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout', key, '-out', cert,
    ], { stdio: 'pipe' });
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    await dir.cleanup();
  }
}
