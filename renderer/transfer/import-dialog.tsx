import { useState } from 'react';
import {
  CSV_HEADER,
  HEADERLESS_CSV_COLUMNS,
  IMPORT_MAX_BYTES,
  type ImportChoice,
  type ImportPreview,
  type ImportResult,
} from '../../shared/transfer.ts';
import { plural } from '../../shared/counts.ts';
import { formatBytes } from '../../shared/sizes.ts';
import { useApi } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import { countRows, shownRows } from './import-choices.ts';
import { PreviewStep } from './import-preview.tsx';
import { ModalDialog } from '../ui/modal-dialog.tsx';

interface ImportDialogProps {
  onImported(result: ImportResult): void;
  onClose(): void;
}

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
  const [plainHttp, setPlainHttp] = useState<ReadonlySet<number>>(new Set());
  const { busy, error, run } = useBusyAction();
  const show = (next: ImportPreview | null) => {
    if (next) {
      setPreview(next);
      setDuplicates('skip');
      setPlainHttp(new Set());
    }
  };
  const fromFile = () => run(async () => show(await api.previewImport({ from: 'file' })));
  const fromText = () => run(async () => show(await api.previewImport({ from: 'text', text })));
  const apply = () => run(async () => onImported(await api.applyImport(preview!.id, { duplicates, plainHttpRows: [...plainHttp] })));

  // Said here, before the text crosses to main: the contract would refuse it anyway.
  const tooLong = text.length > IMPORT_MAX_BYTES;
  return (
    <ModalDialog
      title={preview ? `Import from ${preview.source.replace(/^The pasted text$/, 'pasted text')}` : 'Import panels'}
      onClose={onClose}
      className="modal-wide import-dialog"
    >
      {preview ? (
        <PreviewStep
          preview={preview}
          duplicates={duplicates}
          onDuplicates={setDuplicates}
          plainHttp={plainHttp}
          onPlainHttp={setPlainHttp}
        />
      ) : (
        <div className="import-choose">
          <p>
            Import a Paneldeck export (JSON), a CSV with the columns <code>{CSV_HEADER}</code> (a header row names them; without one:{' '}
            <code>{HEADERLESS_CSV_COLUMNS.join(',')}</code>), or a list with one address per line. You see what would change before anything
            is written. Imported panels are signed out.
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
          <ApplyButton preview={preview} plainHttp={plainHttp} duplicates={duplicates} busy={busy} onApply={apply} />
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
  plainHttp,
  duplicates,
  busy,
  onApply,
}: {
  preview: ImportPreview;
  plainHttp: ReadonlySet<number>;
  duplicates: ImportChoice['duplicates'];
  busy: boolean;
  onApply(): void;
}) {
  const counts = countRows(shownRows(preview, plainHttp));
  const adding = counts.new;
  const updating = duplicates === 'update' ? counts.duplicate : 0;
  const words = [adding > 0 && `add ${plural(adding, 'panel')}`, updating > 0 && `update ${updating.toLocaleString('en')}`]
    .filter(Boolean)
    .join(' and ');
  return (
    <button type="button" className="button-primary" onClick={onApply} disabled={busy || words === ''}>
      {busy ? 'Importing…' : words === '' ? 'Nothing to import' : words.charAt(0).toUpperCase() + words.slice(1)}
    </button>
  );
}
