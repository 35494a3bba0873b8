import { APP_HOST, APP_ORIGIN, notFound, serveRendererFile } from './renderer-files.ts';

export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** Only a dev server on this machine may stand in for the app's own page. */
const DEV_SERVER_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost']);

export interface RendererEntry {
  /** The URL the main window loads. */
  url: string;
  /** The origins whose top frame may call the API and be navigated to. */
  appOrigins: string[];
  /** Why a dev server URL that was given is not used, for the console. */
  warning: string | null;
}

/**
 * Where the renderer comes from: the built files over app://, or, in an unpackaged build, the
 * Vite dev server named by PANELDECK_DEV_SERVER_URL when it is plain http on loopback.
 */
export function rendererEntry(options: { isPackaged: boolean; devServerUrl: string | undefined }): RendererEntry {
  const built = { url: APP_ENTRY_URL, appOrigins: [APP_ORIGIN] };
  const given = options.devServerUrl?.trim();
  if (!given) return { ...built, warning: null };
  if (options.isPackaged) return { ...built, warning: 'PANELDECK_DEV_SERVER_URL is ignored in a packaged build.' };
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return { ...built, warning: 'PANELDECK_DEV_SERVER_URL is not a URL; loading the built renderer.' };
  }
  if (url.protocol !== 'http:' || !DEV_SERVER_HOSTS.has(url.hostname) || url.username !== '' || url.password !== '') {
    return {
      ...built,
      warning: 'PANELDECK_DEV_SERVER_URL must be http://127.0.0.1:<port> or http://localhost:<port>; loading the built renderer.',
    };
  }
  return { url: url.href, appOrigins: [APP_ORIGIN, url.origin], warning: null };
}

/** The app:// protocol handler: the built renderer, for the app's own host only. */
export function serveAppRequest(rendererDir: string, request: Request): Promise<Response> {
  let host: string;
  try {
    host = new URL(request.url).host;
  } catch {
    host = '';
  }
  return host === APP_HOST ? serveRendererFile(rendererDir, request) : Promise.resolve(notFound());
}
