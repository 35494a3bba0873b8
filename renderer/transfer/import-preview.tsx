import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { plural } from '../../shared/counts.ts';
import { COLOUR_NAMES } from '../../shared/labels.ts';
import type { ImportChoice, ImportLabels, ImportPreview, ImportRowStatus } from '../../shared/transfer.ts';
import { countRows, plainHttpNames, plainHttpOffers, type ShownRow, shownRows } from './import-choices.ts';
import { NotEncryptedBadge, PlainHttpChoice } from '../ui/plain-http.tsx';

const STATUS_WORDS: Readonly<Record<ImportRowStatus, string>> = { new: 'Add', duplicate: 'In list', same: 'Unchanged', invalid: 'Invalid' };
const FORMAT_NAMES = { json: 'Paneldeck export', csv: 'CSV', text: 'one address per line' } as const;
type Filter = 'all' | ImportRowStatus;

interface PreviewStepProps {
  preview: ImportPreview;
  duplicates: ImportChoice['duplicates'];
  onDuplicates(choice: ImportChoice['duplicates']): void;
  /** The rows (positions) allowed unencrypted HTTP. */
  plainHttp: ReadonlySet<number>;
  onPlainHttp(rows: ReadonlySet<number>): void;
}

/** What the import would do, line by line, with the choices it leaves to the operator. */
export function PreviewStep({ preview, duplicates, onDuplicates, plainHttp, onPlainHttp }: PreviewStepProps) {
  const shown = shownRows(preview, plainHttp);
  const counts = countRows(shown);
  const offers = plainHttpOffers(preview);
  // Invalid lines first when there are any: they are what needs the operator's eye.
  const [filter, setFilter] = useState<Filter>(preview.counts.invalid > 0 ? 'invalid' : 'all');
  // A line allowed plain http stays among the invalid ones, so its box does not vanish under the pointer.
  const rows =
    filter === 'all'
      ? shown
      : shown.filter(({ row, offersPlainHttp }) => row.status === filter || (filter === 'invalid' && offersPlainHttp));
  // The button that asked for the preview is gone: the keyboard starts again at what it says.
  const summaryRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => summaryRef.current?.focus(), []);
  const summary = [
    `${plural(counts.new, 'new panel')} to add`,
    counts.duplicate > 0 && `${plural(counts.duplicate, 'panel')} already in your list with other settings`,
    counts.same > 0 && `${counts.same.toLocaleString('en')} already in your list as ${counts.same === 1 ? 'it is' : 'they are'}`,
    counts.invalid > 0 && `${plural(counts.invalid, 'invalid line')}, not imported`,
  ].filter(Boolean);
  const unencrypted = plainHttpNames(shown);
  const allowOne = (index: number, allowed: boolean) => {
    const next = new Set(plainHttp);
    if (allowed) next.add(index);
    else next.delete(index);
    onPlainHttp(next);
  };
  return (
    <div className="import-preview">
      <p role="status" ref={summaryRef} tabIndex={-1} className="import-summary">
        Read as {FORMAT_NAMES[preview.format]}: {summary.join(' · ')}. Nothing is written until you confirm.
      </p>
      {unencrypted && <p className="import-plain-http-names meta-warning">Not encrypted (plain HTTP): {unencrypted}.</p>}
      {preview.notes.map((note) => (
        <p key={note} className="muted">
          {note}
        </p>
      ))}
      {offers.length > 0 && (
        <PlainHttpChoice
          label={`Allow unencrypted HTTP for the ${offers.length === 1 ? 'http:// line' : `${offers.length.toLocaleString('en')} http:// lines`}`}
          checked={plainHttp.size === offers.length}
          mixed={plainHttp.size > 0 && plainHttp.size < offers.length}
          onChange={(allowed) => onPlainHttp(new Set(allowed ? offers : []))}
        />
      )}
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
          <option value="all">every line ({shown.length.toLocaleString('en')})</option>
          <option value="new">to add ({counts.new.toLocaleString('en')})</option>
          <option value="duplicate">already in the list, other settings ({counts.duplicate.toLocaleString('en')})</option>
          <option value="same">unchanged ({counts.same.toLocaleString('en')})</option>
          <option value="invalid">invalid ({counts.invalid.toLocaleString('en')})</option>
        </select>
      </label>
      <ImportRows rows={rows} plainHttp={plainHttp} onAllow={allowOne} />
    </div>
  );
}

/** The entries, only those in view in the page: an import may hold thousands. */
function ImportRows({
  rows,
  plainHttp,
  onAllow,
}: {
  rows: readonly ShownRow[];
  plainHttp: ReadonlySet<number>;
  onAllow(index: number, allowed: boolean): void;
}) {
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
          const { row, index, offersPlainHttp } = rows[virtual.index]!;
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
                  {row.plainHttp && row.status !== 'invalid' && (
                    <>
                      {' '}
                      <NotEncryptedBadge />
                    </>
                  )}
                </span>
                <Labels labels={row.labels} />
                {row.message && (
                  <span className={row.status === 'invalid' ? 'import-message field-error' : 'import-message muted'}>{row.message}</span>
                )}
                {offersPlainHttp && (
                  <label className="checkbox import-plain-http">
                    <input type="checkbox" checked={plainHttp.has(index)} onChange={(event) => onAllow(index, event.target.checked)} />
                    <span>
                      Allow unencrypted HTTP<span className="visually-hidden"> for {row.name ?? row.address}</span>
                    </span>
                  </label>
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

/** "★ Favourite · Group Acme · Tags eu, db · Red": what the entry gives; nothing when it gives none. */
function Labels({ labels: { favourite, group, tags, colour } }: { labels: ImportLabels }) {
  const parts: [key: string, shown: ReactNode][] = [];
  if (favourite) parts.push(['favourite', '★ Favourite']);
  if (group) parts.push(['group', `Group ${group}`]);
  if (tags && tags.length > 0) parts.push(['tags', `Tags ${tags.join(', ')}`]);
  if (colour) {
    parts.push([
      'colour',
      <span key="colour" className={`colour-${colour}`}>
        <span className="colour-swatch" aria-hidden="true" /> {COLOUR_NAMES[colour]}
      </span>,
    ]);
  }
  if (parts.length === 0) return null;
  return (
    <span className="import-labels muted">
      {parts.map(([key, shown], index) => (
        <span key={key}>
          {index > 0 && ' · '}
          {shown}
        </span>
      ))}
    </span>
  );
}
