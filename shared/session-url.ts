import type { Generation, Panel } from './types.ts';

/** tRPC queries take their input in the query string; getSession's is `{"json":null}`. */
const TRPC_NULL_INPUT = `?input=${encodeURIComponent(JSON.stringify({ json: null }))}`;
/** The RPC layer (2.31–2.32) reads with a POST of `{"json": null}`. */
const RPC_NULL_BODY = '{"json":null}';

/** What follows the session path in the URL of a session read. */
export function sessionQuery(generation: Generation): string {
  return generation === 'trpc' ? TRPC_NULL_INPUT : '';
}

/** The URL a session read of `panel` goes to. */
export function sessionUrl(panel: Pick<Panel, 'baseUrl' | 'sessionPath' | 'generation'>): string {
  return `${panel.baseUrl}${panel.sessionPath}${sessionQuery(panel.generation)}`;
}

/** The shell a copied command is for: a POSIX shell (macOS, Linux), or PowerShell on Windows. */
export type CommandShell = 'posix' | 'powershell';

/** The shell of the operator's system, from the window's user agent. */
export function commandShellFor(userAgent: string): CommandShell {
  return /Windows/.test(userAgent) ? 'powershell' : 'posix';
}

/**
 * Characters that cmd.exe acts on even in a word PowerShell quotes (and cmd does not): a command
 * pasted into the wrong Windows shell must still start nothing but curl. URL-encoded instead,
 * which panels read the same in a path.
 */
const CMD_ACTIVE = /[&|<>^()!"'`]/g;

/**
 * A shell command that reads the panel's session as Paneldeck does, for a terminal. The token is
 * never in it: the command reads `PANEL_TOKEN` from the shell's environment.
 */
export function curlCommand(panel: Pick<Panel, 'baseUrl' | 'sessionPath' | 'generation'>, shell: CommandShell): string {
  const url = sessionUrl(panel);
  // The body has no quote of either kind inside, so single quotes hold it in every shell here.
  const post = panel.generation === 'rpc' ? ` -H 'Content-Type: application/json' --data '${RPC_NULL_BODY}'` : '';
  if (shell === 'powershell') {
    const safe = url.replace(CMD_ACTIVE, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
    return `curl.exe --fail-with-body -sS -H "Authorization: Bearer $env:PANEL_TOKEN" -H 'Accept: application/json'${post} '${safe}'`;
  }
  const quoted = `'${url.replaceAll("'", `'\\''`)}'`;
  return `curl --fail-with-body -sS -H "Authorization: Bearer $PANEL_TOKEN" -H 'Accept: application/json'${post} ${quoted}`;
}

/**
 * The panel's own web dashboard: the origin of its API, `https://<domain>/` (or the plain-HTTP
 * address the operator chose for it). Opened in the system browser, never in Paneldeck.
 */
export function dashboardUrl(panel: Pick<Panel, 'baseUrl'>): string {
  return `${new URL(panel.baseUrl).origin}/`;
}
