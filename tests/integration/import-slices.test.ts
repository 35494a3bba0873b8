import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCore } from '../../electron/core/index.ts';
import { IMPORT_MAX_ENTRIES } from '../../shared/transfer.ts';
import { tempDir, testEncryption } from '../support/helpers.ts';

/**
 * An import of the most one takes (20,000 addresses) is read, checked and written in slices, so
 * main's event loop gets turns while it runs: work queued on the loop as each call starts (what
 * an IPC call or a window event would be) runs before the call answers, and many times over.
 */

/** Counts the turns of the event loop until stopped: one setImmediate after another. */
function turnCounter(): { turns: () => number; stop: () => void } {
  let turns = 0;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    turns++;
    setImmediate(next);
  };
  setImmediate(next);
  return { turns: () => turns, stop: () => (stopped = true) };
}

test('a 20,000-address import gives main’s event loop turns while it is previewed and applied', async () => {
  const dir = await tempDir('paneldeck-import-slices-');
  try {
    const core = createCore({ dataDir: dir.path, encryption: testEncryption() });
    await core.listPanels();
    const text = Array.from({ length: IMPORT_MAX_ENTRIES }, (_, index) => `https://slice-${index}.example.org`).join('\n');

    let ranBeforePreview = false;
    setImmediate(() => (ranBeforePreview = true));
    const previewTurns = turnCounter();
    const preview = await core.previewImport({ from: 'text', text });
    previewTurns.stop();
    assert.ok(preview);
    assert.equal(preview.counts.new, IMPORT_MAX_ENTRIES);
    assert.ok(ranBeforePreview, 'work queued as the preview started ran before it answered');
    // Reading, checking and planning each take several slices; in one go they would be one turn.
    assert.ok(previewTurns.turns() >= 5, `${previewTurns.turns()} turns during the preview`);

    let ranBeforeApply = false;
    setImmediate(() => (ranBeforeApply = true));
    const applyTurns = turnCounter();
    const applied = await core.applyImport(preview.id, { duplicates: 'skip' });
    applyTurns.stop();
    assert.equal(applied.added, IMPORT_MAX_ENTRIES);
    assert.ok(ranBeforeApply, 'work queued as the apply started ran before it answered');
    assert.ok(applyTurns.turns() >= 5, `${applyTurns.turns()} turns during the apply`);
    assert.equal((await core.listPanels()).length, IMPORT_MAX_ENTRIES);
    await core.flush();
  } finally {
    await dir.cleanup();
  }
});
