import { STYLE_PATHS } from '../common/style-paths.ts';
import { randomUUID } from 'node:crypto';
import { PanelError } from '../../../shared/errors.ts';
import type { ImportChoice, ImportPreview, ImportResult, ImportSource } from '../../../shared/transfer.ts';

import { mapInSlices, nextTurn } from '../common/time-slices.ts';
import { checkEntry, type CheckedEntry, type ImportSettings } from '../transfer/import-entry.ts';
import { planImport } from '../transfer/import-plan.ts';
import { readImportFile, readImportText, type ImportText } from '../transfer/import-reader.ts';
import type { PanelRecord } from '../storage/panel-record.ts';
import type { ServiceState } from './service-state.ts';

export interface ImporterOptions {
  state: () => Promise<ServiceState>;
  /** The file to import, from main's open dialog; null when the operator cancels. */
  chooseImportFile: () => Promise<string | null>;
  now: () => Date;
  /** Tells the window about the panels an import added or changed. */
  changed: (panelIds: readonly string[]) => void;
}

interface PendingImport {
  id: string;
  entries: CheckedEntry[];
}

/**
 * Import in two steps: a preview of what each entry would do, then, once the operator confirms,
 * the change, in one write of the panel list. Only the newest preview can be applied, and it is
 * planned again against the list as it is then: a panel added meanwhile is a duplicate, not a twin.
 */
export class PanelImporter {
  readonly #options: ImporterOptions;
  #pending: PendingImport | null = null;

  constructor(options: ImporterOptions) {
    this.#options = options;
  }

  async preview(source: ImportSource): Promise<ImportPreview | null> {
    const current = await this.#options.state();
    let read: { name: string; text: string };
    if (source.from === 'file') {
      const path = await this.#options.chooseImportFile();
      if (path === null) return null;
      read = readImportFile(path);
    } else {
      read = { name: 'The pasted text', text: source.text };
    }
    const parsed: ImportText = readImportText(read.text, read.name);
    // Reading twenty thousand lines is a slice of its own.
    await nextTurn();
    const entries = await mapInSlices(parsed.entries, checkEntry);
    const plan = await planImport(entries, current.registry.list());
    this.#pending = { id: randomUUID(), entries };
    return { id: this.#pending.id, source: read.name, format: parsed.format, rows: plan.rows, counts: plan.counts, notes: parsed.notes };
  }

  async apply(previewId: string, { duplicates }: ImportChoice): Promise<ImportResult> {
    const current = await this.#options.state();
    const pending = this.#pending;
    if (pending?.id !== previewId) {
      throw new PanelError(
        'INVALID_INPUT',
        'This import preview is no longer current (another import was previewed or done since). Import the file or text again.',
      );
    }
    const plan = await planImport(pending.entries, current.registry.list());
    const createdAt = this.#options.now().toISOString();
    const additions = await mapInSlices(plan.additions, (settings) => newRecord(settings, createdAt));
    const updates = duplicates === 'update' ? plan.updates : new Map();
    // One write: the whole import lands, or (the write failing) none of it does.
    await current.registry.insertAndUpdate(additions, updates);
    this.#pending = null;
    this.#options.changed([...additions.map((record) => record.id), ...updates.keys()]);
    return {
      added: additions.length,
      updated: updates.size,
      unchanged: plan.counts.same + (duplicates === 'update' ? 0 : plan.counts.duplicate),
      invalid: plan.counts.invalid,
    };
  }
}

/** A panel as Add panel would make it, with the settings the import gives; signed out. */
export function newRecord(settings: ImportSettings, createdAt: string): PanelRecord {
  const apiStyle = settings.apiStyle ?? 'plain';
  return {
    id: randomUUID(),
    name: settings.name ?? settings.display,
    baseUrl: settings.baseUrl,
    allowPlainHttp: settings.allowPlainHttp,
    apiStyle,
    loginPath: settings.loginPath ?? STYLE_PATHS[apiStyle].login,
    sessionPath: settings.sessionPath ?? STYLE_PATHS[apiStyle].session,
    trustedCertificate: settings.trustedCertificate ?? null,
    tokenField: settings.tokenField ?? null,
    createdAt,
    lastEmail: null,
    tokenStorage: null,
    signedOutReason: null,
    lastCheck: null,
    group: settings.group ?? null,
    tags: settings.tags ?? [],
    colour: settings.colour ?? null,
    favourite: settings.favourite ?? false,
  };
}
