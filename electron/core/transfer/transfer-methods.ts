import { randomUUID } from 'node:crypto';
import { mapInSlices, nextTurn } from '../common/time-slices.ts';
import { PanelError } from '../../../shared/contract/errors.ts';
import { exportDocument } from '../../../shared/transfer.ts';
import { jsonFileStore, storageError } from '../storage/document-store.ts';
import { plainHttpVariant, validateEntry, type ValidatedEntry } from './import-entry.ts';
import { planImport, planPreview, withPlainHttp } from './import-plan.ts';
import { readImportFile, readImportText, type ImportText } from './import-reader.ts';
import { newPanelRecord } from '../panels/new-panel.ts';
import type { PanelChanges } from '../context/change-batchers.ts';
import { changingTrust, type CoreMethods, type CoreOptions, type FolderAccess, type TrustChanges } from '../context/core-context.ts';
import { toPanel } from '../storage/data-folder.ts';
import { find } from '../sign-in/session-reader.ts';

interface PendingImport {
  id: string;
  entries: ValidatedEntry[];
  /** Entries refused only for plain http, as they would be with it allowed: by position. */
  plainHttpVariants: Map<number, ValidatedEntry>;
}

/** What export and import use: the folder, the clock, the window's changes, where a change of trust is told (an import can change certificates). */
export interface TransferParts extends FolderAccess {
  now(): Date;
  changes: PanelChanges;
  trust: TrustChanges;
}

/**
 * Panels out to a file, and in from a file or pasted text. Import goes in two steps: a preview of
 * what each entry would do, then, once the operator confirms, the change, in one write of the
 * panel list. Only the newest preview can be applied, and it is planned again against the list as
 * it is then: a panel added meanwhile is a duplicate, not a twin.
 */
export function transferMethods(
  parts: TransferParts,
  options: Pick<CoreOptions, 'chooseExportFile' | 'chooseImportFile'>,
): CoreMethods<'exportPanels' | 'previewImport' | 'applyImport'> {
  const { state, now, changes, trust } = parts;
  let pending: PendingImport | null = null;

  return {
    async exportPanels(requested) {
      const current = await state();
      const records = requested ? requested.map((panelId) => find(current, panelId)) : current.registry.list();
      const at = now();
      const path = await (options.chooseExportFile ?? (async () => null))(`paneldeck-panels-${at.toISOString().slice(0, 10)}.json`);
      if (path === null) return { path: null, count: records.length };
      const document = exportDocument(
        records.map((record) => toPanel(record, current)),
        at,
      );
      try {
        // Written whole or not at all, readable by the operator only, like Paneldeck's own files.
        await jsonFileStore(path, { mode: 0o600 }).save(null, () => document as unknown as Record<string, unknown>);
      } catch (error) {
        throw storageError(`write the exported panels to ${path}`, error);
      }
      return { path, count: records.length };
    },

    async previewImport(from) {
      const current = await state();
      let read: { name: string; text: string };
      if (from.from === 'file') {
        const path = await (options.chooseImportFile ?? (async () => null))();
        if (path === null) return null;
        read = await readImportFile(path);
      } else {
        read = { name: 'The pasted text', text: from.text };
      }
      const parsed: ImportText = readImportText(read.text, read.name);
      // Reading twenty thousand lines is a slice of its own.
      await nextTurn();
      // Twenty thousand entries take longer than main may be held: validated a slice at a time.
      const entries = await mapInSlices(parsed.entries, validateEntry);
      const variants = await mapInSlices(entries, (entry, index) => plainHttpVariant(parsed.entries[index]!, entry));
      const plainHttpVariants = new Map(variants.flatMap((variant, index) => (variant ? [[index, variant] as const] : [])));
      const plan = await planPreview(entries, plainHttpVariants, current.registry.list());
      // Only the choices the preview offers can be applied.
      for (const index of plainHttpVariants.keys()) if (!plan.rows[index]!.ifPlainHttp) plainHttpVariants.delete(index);
      pending = { id: randomUUID(), entries, plainHttpVariants };
      return { id: pending.id, source: read.name, format: parsed.format, rows: plan.rows, counts: plan.counts, notes: parsed.notes };
    },

    applyImport(id, { duplicates, plainHttpRows = [] }) {
      return changingTrust(trust, async () => {
        const current = await state();
        const applying = pending;
        if (applying?.id !== id) {
          throw new PanelError(
            'INVALID_INPUT',
            'This import preview is no longer current (another import was previewed or done since). Import the file or text again.',
          );
        }
        const entries = withPlainHttp(applying.entries, applying.plainHttpVariants, plainHttpRows);
        const plan = await planImport(entries, current.registry.list());
        const createdAt = now().toISOString();
        const additions = await mapInSlices(plan.additions, (settings) => newPanelRecord(settings, createdAt));
        const updates = duplicates === 'update' ? plan.updates : new Map();
        // One write: the whole import lands, or (the write failing) none of it does.
        await current.registry.insertAndUpdate(additions, updates);
        pending = null;
        for (const panelId of [...additions.map((record) => record.id), ...updates.keys()]) changes.changed(panelId);
        return {
          added: additions.length,
          updated: updates.size,
          unchanged: plan.counts.same + (duplicates === 'update' ? 0 : plan.counts.duplicate),
          invalid: plan.counts.invalid,
          addedIds: additions.map((record) => record.id),
        };
      });
    },
  };
}
