import { randomBytes } from 'node:crypto';

/**
 * The encodings a panel may echo a secret in, and a search for them written independently of
 * electron/core/secrets/secret-match.ts (it decodes rather than precomputing needles), so that a test
 * does not check the matcher against itself.
 */

/** Each named form of `secret` as it would appear in a panel's answer; `email` is for Basic. */
export function echoForms(secret: string, email: string): { name: string; text: string }[] {
  const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
  // Inside a longer blob, the secret starts at each of the three byte offsets of a base64 group.
  const blobs = [0, 1, 2].map((offset) => ({
    name: `inside a base64 blob at byte offset ${offset}`,
    text: base64(Buffer.concat([randomBytes(30 + offset), Buffer.from(`"token":"${secret}"`), randomBytes(7)])),
  }));
  return [
    { name: 'URL-encoded in a URL', text: `wss://x/?token=${encodeURIComponent(secret)}&v=2` },
    { name: 'double URL-encoded', text: `next=${encodeURIComponent(`https://x/?token=${encodeURIComponent(secret)}`)}` },
    { name: 'URL-encoded with lower-case hex', text: encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()) },
    { name: 'Basic base64(email:token)', text: `Basic ${base64(`${email}:${secret}`)}` },
    { name: 'base64url', text: Buffer.from(`t=${secret}`).toString('base64url') },
    { name: 'upper case', text: `Bearer ${secret.toUpperCase()}` },
    { name: 'lower case', text: secret.toLowerCase() },
    { name: 'hex', text: `sig=${Buffer.from(secret).toString('hex')}` },
    ...blobs,
  ];
}

/**
 * The forms of `secret` that `text` holds: as it is or hex-encoded, in any case, after
 * percent-decoding (up to three levels), and inside any base64 or base64url run, at any of its
 * four character offsets. Empty when none.
 */
export function secretFormsIn(text: string, secret: string): string[] {
  const found = new Set<string>();
  const views = [text];
  for (let level = 0; level < 3; level++) {
    const decoded = views.at(-1)!.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
    if (decoded === views.at(-1)) break;
    views.push(decoded);
  }
  const lowerSecret = secret.toLowerCase();
  for (const [level, view] of views.entries()) {
    const how = level === 0 ? '' : ` after ${level} level(s) of percent-decoding`;
    if (view.toLowerCase().includes(lowerSecret)) found.add(`as it is or in another case${how}`);
    if (view.toLowerCase().includes(Buffer.from(secret).toString('hex'))) found.add(`in hex${how}`);
    for (const [run] of view.matchAll(/[A-Za-z0-9+/_-]{8,}/g)) {
      for (let skip = 0; skip < 4; skip++) {
        // Node reads both alphabets; `latin1` keeps every byte, so UTF-8 secrets are compared as bytes.
        const bytes = Buffer.from(run.slice(skip), 'base64').toString('latin1');
        if (bytes.includes(Buffer.from(secret).toString('latin1'))) found.add(`in base64${how}`);
      }
    }
  }
  return [...found];
}
