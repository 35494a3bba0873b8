import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

/** The renderer is served from `app://paneldeck/`, never from file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'paneldeck';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * The page may run and style only what the app ships, and reach no network at all: every
 * panel request goes through main. `style-src 'self'` still allows React's style properties,
 * which are set through the CSSOM rather than parsed from markup.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

const securityHeaders = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
};

/**
 * Answers one request for the built renderer: `protocol.handle` in the app, a loopback HTTP
 * server in the browser tests. Only files inside `rendererDir` with a known type are served.
 */
export async function serveRendererFile(rendererDir: string, request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed');
  const filePath = fileFor(rendererDir, new URL(request.url).pathname);
  const type = filePath ? contentTypes[extname(filePath).toLowerCase()] : undefined;
  if (!filePath || !type) return notFound();
  let body: Buffer;
  try {
    body = await readFile(filePath);
  } catch {
    return notFound();
  }
  const headers = { ...securityHeaders, 'Content-Type': type, 'Content-Length': String(body.byteLength) };
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
}

/** The file a URL path names, or null when it is malformed or points outside `rendererDir`. */
export function fileFor(rendererDir: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const root = resolve(rendererDir);
  const file = resolve(root, `.${decoded === '/' ? '/index.html' : decoded}`);
  return file.startsWith(root + sep) ? file : null;
}

/** A 404 with the same security headers as every other answer. */
export function notFound(): Response {
  return plain(404, 'Not found');
}

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { ...securityHeaders, 'Content-Type': 'text/plain; charset=utf-8' } });
}
