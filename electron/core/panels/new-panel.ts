import { randomUUID } from 'node:crypto';
import { fitPanelName } from '../../../shared/labels.ts';
import type { PanelSettings } from '../../../shared/types.ts';
import { GENERATION_PATHS } from '../common/generation-paths.ts';
import type { PanelRecord } from '../storage/panel-record.ts';

/** A new panel's address (as `normaliseAddress` gives it) and whichever of its settings are given. */
export type NewPanel = { baseUrl: string; display: string } & Partial<PanelSettings>;

/**
 * The one place a panel is made, for Add panel, Duplicate and import alike: the settings given,
 * Add panel's defaults for the others (named after its address, cut to the name's limit, the public generation and its
 * paths, no labels), signed out. Only settings are read from `panel`, so a panel's own record
 * may be passed to copy its settings.
 */
export function newPanelRecord(panel: NewPanel, createdAt: string): PanelRecord {
  const generation = panel.generation ?? 'public';
  return {
    id: randomUUID(),
    // An empty name (Add panel's form left blank) means "name it after the address".
    name: panel.name || fitPanelName(panel.display),
    baseUrl: panel.baseUrl,
    allowPlainHttp: panel.allowPlainHttp ?? false,
    generation,
    loginPath: panel.loginPath ?? GENERATION_PATHS[generation].login,
    sessionPath: panel.sessionPath ?? GENERATION_PATHS[generation].session,
    trustedCertificate: panel.trustedCertificate ?? null,
    tokenField: panel.tokenField ?? null,
    createdAt,
    lastEmail: null,
    tokenStorage: null,
    tokenKind: null,
    keepSignedIn: panel.keepSignedIn ?? true,
    signedOutReason: null,
    lastCheck: null,
    group: panel.group ?? null,
    tags: panel.tags ?? [],
    colour: panel.colour ?? null,
    favourite: panel.favourite ?? false,
    muted: false,
    readOnly: panel.readOnly ?? false,
    notes: panel.notes ?? '',
    fleetFile: null,
    accounts: [],
    writeAccount: null,
  };
}
