import type { ApiStyle, Panel } from './types.ts';

/** tRPC queries take their input in the query string; getSession's is `{"json":null}`. */
const TRPC_NULL_INPUT = `?input=${encodeURIComponent(JSON.stringify({ json: null }))}`;

/** What follows the session path in the URL of a session read. */
export function sessionQuery(style: ApiStyle): string {
  return style === 'trpc' ? TRPC_NULL_INPUT : '';
}

/** The URL a session read of `panel` goes to. */
export function sessionUrl(panel: Pick<Panel, 'baseUrl' | 'sessionPath' | 'apiStyle'>): string {
  return `${panel.baseUrl}${panel.sessionPath}${sessionQuery(panel.apiStyle)}`;
}

/**
 * A shell command that reads the panel's session as Paneldeck does, for a terminal. The token is
 * never in it: the command reads `$PANEL_TOKEN`, which the operator sets from their own copy.
 */
export function curlCommand(panel: Pick<Panel, 'baseUrl' | 'sessionPath' | 'apiStyle'>): string {
  const quoted = `'${sessionUrl(panel).replaceAll("'", `'\\''`)}'`;
  return `curl --fail-with-body -sS -H "Authorization: Bearer $PANEL_TOKEN" -H 'Accept: application/json' ${quoted}`;
}

/**
 * The panel's own web dashboard: the origin of its API, `https://<domain>/` (or the plain-HTTP
 * address the operator chose for it). Opened in the system browser, never in Paneldeck.
 */
export function dashboardUrl(panel: Pick<Panel, 'baseUrl'>): string {
  return `${new URL(panel.baseUrl).origin}/`;
}
