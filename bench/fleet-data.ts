/**
 * Data folders of many signed-in panels for bench/fleet.ts, written straight to disk: signing in a
 * thousand panels through the core would rewrite the whole panel list and token store once per
 * panel, minutes of set-up that measure nothing the bench asks about.
 *
 * The formats are the ones the service reads (and the code before the fleet work read too):
 * panels.json is the current format (REGISTRY_VERSION in electron/core/storage/panel-registry.ts), tokens.json
 * format 1 (VAULT_VERSION in token-vault.ts), checks.json format 1 (check-history.ts), settings.json
 * format 1 (app-settings.ts). Text is laid out as jsonFileStore writes it, so that sizes compare.
 * bench/fleet.ts checks after opening that every panel reads as signed in, in case a format moved.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { normaliseAddress, type Encryption } from '../electron/core/index.ts';
import { REGISTRY_VERSION } from '../electron/core/storage/panel-registry.ts';

export interface FleetPanel {
  id: string;
  baseUrl: string;
  token: string;
}

export interface FleetFolder {
  panels: FleetPanel[];
  /** Bytes of each file written, by name (`panels.json`...). */
  sizes: Record<string, number>;
}

/** Owner only, as the core keeps its files (PRIVATE_FILE_MODE in document-store.ts). */
const FILE_MODE = 0o600;

function text(document: unknown): string {
  return `${JSON.stringify(document, null, '\t')}\n`;
}

/** A token as panels issue them: 32 random bytes in base64url, like the reference panel's. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Writes a folder where the panel at each entry's address is signed in with the entry's token,
 * encrypted with `encryption`. `extras` adds the settings and a check history with a successful
 * last check for every panel, as a folder looks after the app has run for a while.
 */
export async function writeFleetFolder(
  dir: string,
  entries: readonly { address: string; token: string }[],
  encryption: Encryption,
  extras: { settings: boolean; checks: boolean },
): Promise<FleetFolder> {
  const at = new Date().toISOString();
  const expires = new Date(Date.now() + 60 * 60 * 1000).toISOString();
  const panels = entries.map(({ address, token }): FleetPanel => ({ id: randomUUID(), baseUrl: normaliseAddress(address).baseUrl, token }));
  const records = panels.map(({ id, baseUrl }, index) => ({
    id,
    name: `Fleet panel ${index + 1}`,
    baseUrl,
    loginPath: '/login',
    tokenField: null,
    createdAt: at,
    lastEmail: 'demo@paneldeck.test',
    tokenStorage: 'encrypted',
    signedOutReason: null,
    lastCheck: null,
    group: null,
    tags: [],
    colour: null,
    favourite: false,
  }));
  const tokens: Record<string, { ciphertext: string; backend: string; savedAt: string; baseUrl: string }> = {};
  for (const { id, baseUrl, token } of panels) {
    tokens[id] = {
      ciphertext: Buffer.from(await encryption.encrypt(token)).toString('base64'),
      backend: encryption.backend(),
      savedAt: at,
      baseUrl,
    };
  }
  const documents: Record<string, unknown> = {
    'panels.json': { version: REGISTRY_VERSION, panels: records },
    'tokens.json': { version: 1, tokens },
  };
  if (extras.settings) {
    documents['settings.json'] = {
      version: 1,
      storeTokensWithWeakProtection: false,
      checkConcurrency: 16,
      checkIntervalMinutes: 5,
      expiryWarningMinutes: 10,
      notifyBeforeExpiry: true,
    };
  }
  if (extras.checks) {
    documents['checks.json'] = {
      version: 1,
      panels: Object.fromEntries(panels.map(({ id }) => [id, { lastCheck: { at, ok: true }, sessionExpiresAt: expires }])),
    };
  }
  const sizes: Record<string, number> = {};
  for (const [name, document] of Object.entries(documents)) {
    const content = text(document);
    await writeFile(join(dir, name), content, { mode: FILE_MODE });
    sizes[name] = Buffer.byteLength(content);
  }
  return { panels, sizes };
}
