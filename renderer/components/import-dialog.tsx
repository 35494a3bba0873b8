import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  IMPORT_MAX_BYTES,
  type ImportChoice,
  type ImportPreview,
  type ImportResult,
  type ImportRow,
  type ImportRowStatus,
} from '../../shared/transfer.ts';
import { plural } from '../../shared/counts.ts';
import { formatBytes } from '../../shared/sizes.ts';
import { useApi } from '../app-context.tsx';
import { useBusyAction } from '../busy-action.ts';
import { ModalDialog } from './modal-dialog.tsx';

interface ImportDialogProps {
  onImported(result: ImportResult): void;
  onClose(): void;
}

const STATUS_WORDS: Readonly<Record<ImportRowStatus, string>> = { new: 'Add', duplicate: 'In list', same: 'Unchanged', invalid: 'Invalid' };
const FORMAT_NAMES = { json: 'Paneldeck export', csv: 'CSV', text: 'one address per line' } as const;
type Filter = 'all' | ImportRowStatus;

/**
 * Import panels: from a file (main's open dialog) or pasted text, then a preview of every entry
 * (what is added, what is already in the list, which lines are invalid and why) before anything
 * is written. Only the operator's confirmation writes, once.
 */
export function ImportDialog({ onImported, onClose }: ImportDialogProps) {
  const api = useApi();
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [duplicates, setDuplicates] = useState<ImportChoice['duplicates']>('skip');
  const { busy, error, run } = useBusyAction();
  const show = (next: ImportPreview | null) => {
    if (next) {
      setPreview(next);
      setDuplicates('skip');
    }
  };
  const fromFile = () => run(async () => show(await api.previewImport({ from: 'file' })));
  const fromText = () => run(async () => show(await api.previewImport({ from: 'text', text })));
  const apply = () => run(async () => onImported(await api.applyImport(preview!.id, { duplicates })));

  // Said here, before the text crosses to main: the contract would refuse it anyway.
  const tooLong = text.length > IMPORT_MAX_BYTES;
  return (
    <ModalDialog
      title={preview ? `Import from ${preview.source.replace(/^The pasted text$/, 'pasted text')}` : 'Import panels'}
      onClose={onClose}
      className="modal-wide import-dialog"
    >
      {preview ? (
        <PreviewStep preview={preview} duplicates={duplicates} onDuplicates={setDuplicates} />
      ) : (
        <div className="import-choose">
          <p>
            Import a Paneldeck export (JSON), a CSV with the columns <code>name,address,group,tags</code>, or a list with one address per
            line. You see what would change before anything is written. Imported panels are signed out.
          </p>
          <div>
            <button type="button" className="button-primary" onClick={fromFile} disabled={busy}>
              Choose a file…
            </button>
          </div>
          <label className="field">
            <span className="field-label">Or paste them here</span>
            <textarea
              className="import-paste"
              rows={8}
              spellCheck={false}
              value={text}
              placeholder={'panel-1.example.com\npanel-2.example.com'}
              onChange={(event) => setText(event.target.value)}
            />
          </label>
          {tooLong && (
            <p className="field-error">
              The pasted text is too long ({formatBytes(IMPORT_MAX_BYTES)} at most). Import it from a file, or in parts.
            </p>
          )}
        </div>
      )}
      {error && (
        <div className="notice notice-error" role="alert">
          <p>{error.message}</p>
        </div>
      )}
      <div className="form-actions">
        {preview && (
          <button type="button" onClick={() => setPreview(null)} disabled={busy}>
            Back
          </button>
        )}
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        {preview ? (
          <ApplyButton preview={preview} duplicates={duplicates} busy={busy} onApply={apply} />
        ) : (
          <button type="button" onClick={fromText} disabled={busy || text.trim() === '' || tooLong}>
            {busy ? 'Reading…' : 'Preview pasted text'}
          </button>
        )}
      </div>
    </ModalDialog>
  );
}

function ApplyButton({
  preview,
  duplicates,
  busy,
  onApply,
}: {
  preview: ImportPreview;
  duplicates: ImportChoice['duplicates'];
  busy: boolean;
  onApply(): void;
}) {
  const adding = preview.counts.new;
  const updating = duplicates === 'update' ? preview.counts.duplicate : 0;
  const words = [adding > 0 && `add ${plural(adding, 'panel')}`, updating > 0 && `update ${updating.toLocaleString('en')}`]
    .filter(Boolean)
    .join(' and ');
  return (
    <button type="button" className="button-primary" onClick={onApply} disabled={busy || words === ''}>
      {busy ? 'Importing…' : words === '' ? 'Nothing to import' : words.charAt(0).toUpperCase() + words.slice(1)}
    </button>
  );
}

function PreviewStep({
  preview,
  duplicates,
  onDuplicates,
}: {
  preview: ImportPreview;
  duplicates: ImportChoice['duplicates'];
  onDuplicates(choice: ImportChoice['duplicates']): void;
}) {
  const { counts } = preview;
  // Invalid lines first when there are any: they are what needs the operator's eye.
  const [filter, setFilter] = useState<Filter>(counts.invalid > 0 ? 'invalid' : 'all');
  const rows = filter === 'all' ? preview.rows : preview.rows.filter((row) => row.status === filter);
  // The button that asked for the preview is gone: the keyboard starts again at what it says.
  const summaryRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => summaryRef.current?.focus(), []);
  const summary = [
    `${plural(counts.new, 'new panel')} to add`,
    counts.duplicate > 0 && `${plural(counts.duplicate, 'panel')} already in your list with other settings`,
    counts.same > 0 && `${counts.same.toLocaleString('en')} already in your list as ${counts.same === 1 ? 'it is' : 'they are'}`,
    counts.invalid > 0 && `${plural(counts.invalid, 'invalid line')}, not imported`,
  ].filter(Boolean);
  return (
    <div className="import-preview">
      <p role="status" ref={summaryRef} tabIndex={-1} className="import-summary">
        Read as {FORMAT_NAMES[preview.format]}: {summary.join(' · ')}. Nothing is written until you confirm.
      </p>
      {preview.notes.map((note) => (
        <p key={note} className="muted">
          {note}
        </p>
      ))}
      {counts.duplicate > 0 && (
        <fieldset className="import-duplicates">
          <legend>Panels already in your list (same address)</legend>
          <label>
            <input type="radio" name="duplicates" checked={duplicates === 'skip'} onChange={() => onDuplicates('skip')} /> Skip them: keep
            their settings as they are
          </label>
          <label>
            <input type="radio" name="duplicates" checked={duplicates === 'update'} onChange={() => onDuplicates('update')} /> Update their
            settings from the import (their sign-ins stay)
          </label>
        </fieldset>
      )}
      <label className="import-filter">
        Show{' '}
        <select value={filter} onChange={(event) => setFilter(event.target.value as Filter)}>
          <option value="all">every line ({preview.rows.length.toLocaleString('en')})</option>
          <option value="new">to add ({counts.new.toLocaleString('en')})</option>
          <option value="duplicate">already in the list, other settings ({counts.duplicate.toLocaleString('en')})</option>
          <option value="same">unchanged ({counts.same.toLocaleString('en')})</option>
          <option value="invalid">invalid ({counts.invalid.toLocaleString('en')})</option>
        </select>
      </label>
      <ImportRows rows={rows} />
    </div>
  );
}

/** The entries, only those in view in the page: an import may hold thousands. */
function ImportRows({ rows }: { rows: readonly ImportRow[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const getScrollElement = useCallback(() => scroller.current, []);
  const estimateSize = useCallback(() => 46, []);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement, estimateSize, overscan: 8 });
  if (rows.length === 0) return <p className="muted import-rows-empty">No lines of this kind.</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the keyboard to be scrolled with it (axe: scrollable-region-focusable)
    <div ref={scroller} className="import-rows" tabIndex={0}>
      <ul className="import-rows-inner" aria-label="Lines of the import" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((virtual) => {
          const row = rows[virtual.index]!;
          return (
            <li
              key={virtual.key}
              ref={virtualizer.measureElement}
              data-index={virtual.index}
              aria-setsize={rows.length}
              aria-posinset={virtual.index + 1}
              className={`import-row import-${row.status}`}
              style={{ transform: `translateY(${virtual.start}px)` }}
            >
              <span className="import-line">Line {row.line}</span>
              <span className={`import-status status-word-${row.status}`}>{STATUS_WORDS[row.status]}</span>
              <span className="import-text">
                <span className="import-name">
                  {row.name ?? <span className="muted">(no name)</span>}{' '}
                  <span className="import-address">{row.address || '(no address)'}</span>
                </span>
                {row.message && (
                  <span className={row.status === 'invalid' ? 'import-message field-error' : 'import-message muted'}>{row.message}</span>
                )}
                {row.changes.length > 0 && <span className="import-message">An update changes: {row.changes.join(', ')}.</span>}
                {row.trustsCertificate && (
                  <span className="import-message meta-warning">
                    Trusts a certificate by its fingerprint: import only from a source you trust.
                  </span>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
