import { memo, useCallback, useMemo, useState, useTransition, type CSSProperties, type ReactNode } from 'react';
import { formatBytes } from '../../shared/sizes.ts';
import { HIDDEN_SECRET } from '../../shared/types.ts';
import {
  EXPAND_ROW_BUDGET,
  LONG_STRING,
  PAGE_SIZE,
  SHOW_ALL_LIMIT,
  STRING_PREFIX,
  carryView,
  formatCount,
  formatNumber,
  initialView,
  planOpen,
  utf8Length,
  visibleRows,
  type Branch,
  type JsonRow,
  type MaskRule,
  type TreeView,
} from './json-rows.ts';
import { MASKED_VALUE } from '../../shared/secret-fields.ts';

/** Levels that indent; deeper rows stay at this indent and say their level instead. */
const MAX_INDENT = 12;
/** Keys are names, not content: past this, the key shows a prefix (the tree is for reading). */
const LONG_KEY = 200;
const LARGER_PAGE = 1_000;

interface TreeState extends TreeView {
  root: unknown;
  /** Row ids of long strings shown whole. */
  full: ReadonlySet<string>;
  /** Set after "Expand all" could not open everything. */
  partial: boolean;
}

const freshState = (root: unknown): TreeState => ({ root, ...initialView(root), full: new Set(), partial: false });

/**
 * Any JSON as a foldable tree. It renders one flat list of the rows that are open, a page of
 * entries per branch, so neither a 1,000-level nor a 10,000-key answer builds a big DOM.
 */
export function JsonTree({
  value,
  label,
  mask,
  maskedAction,
}: {
  value: unknown;
  label: string;
  /** Which entries show masked (the console's secrets), asked only of the rows on screen. */
  mask?: MaskRule | undefined;
  /** Beside each masked value: what the operator can do with it (the console's Reveal). */
  maskedAction?: MaskedAction;
}) {
  const [state, setState] = useState<TreeState>(() => freshState(value));
  // A refreshed answer keeps the branches the operator had open (adjusted during render, as
  // React advises, so the old tree never shows against the new value).
  let current = state;
  if (state.root !== value) {
    current = { root: value, ...carryView(state.root, state, value), full: new Set(), partial: false };
    setState(current);
  }
  const rows = useMemo(() => visibleRows(current.root, current, mask), [current, mask]);

  const toggle = useCallback((branch: Branch) => {
    setState((previous) => {
      const open = new Set(previous.open);
      if (!open.delete(branch)) open.add(branch);
      return { ...previous, open, partial: false };
    });
  }, []);
  // Thousands of rows at once render as a transition: React yields while it builds them, so
  // the window keeps answering, and the toolbar says it is at work.
  const [opening, startTransition] = useTransition();
  const showMore = useCallback((branch: Branch, count: number) => {
    startTransition(() => setState((previous) => ({ ...previous, shown: new Map(previous.shown).set(branch, count) })));
  }, []);
  const showString = useCallback((id: string, whole: boolean) => {
    setState((previous) => {
      const full = new Set(previous.full);
      if (whole) full.add(id);
      else full.delete(id);
      return { ...previous, full };
    });
  }, []);
  const expandAll = () => {
    startTransition(() =>
      setState((previous) => {
        const plan = planOpen(previous.root, { maxDepth: Infinity, rowBudget: EXPAND_ROW_BUDGET, shown: previous.shown });
        return { ...previous, open: plan.open, partial: !plan.complete };
      }),
    );
  };
  const collapseAll = () => {
    setState((previous) => ({
      ...previous,
      open: new Set(typeof previous.root === 'object' && previous.root !== null ? [previous.root as Branch] : []),
      partial: false,
    }));
  };

  const first = rows[0];
  const isBranchRoot = first?.kind === 'branch' && first.size > 0;
  return (
    <div className="json-tree">
      {isBranchRoot && (
        <div className="json-tools">
          <button type="button" onClick={expandAll}>
            Expand all
          </button>
          <button type="button" onClick={collapseAll}>
            Collapse all
          </button>
          <span className="muted" role="status">
            {opening
              ? 'Opening…'
              : current.partial
                ? `Opened what fits in ${formatCount(EXPAND_ROW_BUDGET)} rows; open the rest branch by branch.`
                : ''}
          </span>
        </div>
      )}
      <ul className="json-rows" aria-label={label}>
        {rows.map((row) => (
          <Row
            key={row.id}
            row={row}
            whole={current.full.has(row.id)}
            onToggle={toggle}
            onShowMore={showMore}
            onShowString={showString}
            maskedAction={maskedAction}
          />
        ))}
      </ul>
    </div>
  );
}

/** The control beside a masked value, given the branch holding it and its key there. */
export type MaskedAction = (parent: Branch | null, name: string | null) => ReactNode;

interface RowProps {
  row: JsonRow;
  maskedAction?: MaskedAction | undefined;
  whole: boolean;
  onToggle(branch: Branch): void;
  onShowMore(branch: Branch, count: number): void;
  onShowString(id: string, whole: boolean): void;
}

/** Rows are rebuilt on each change; one that still says the same thing keeps its DOM untouched. */
function sameRow(before: RowProps, after: RowProps): boolean {
  if (before.whole !== after.whole || before.onToggle !== after.onToggle || before.maskedAction !== after.maskedAction) return false;
  const a = before.row as Record<string, unknown>;
  const b = after.row as Record<string, unknown>;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]));
}

const Row = memo(function Row({ row, whole, onToggle, onShowMore, onShowString, maskedAction }: RowProps) {
  const indent = { '--indent': Math.min(row.depth, MAX_INDENT) } as CSSProperties;
  const deep = row.depth > MAX_INDENT && (
    <span className="json-level" title={`Nesting level ${formatCount(row.depth + 1)}`}>
      {formatCount(row.depth + 1)}
    </span>
  );
  if (row.kind === 'more') {
    const remaining = row.total - row.shown;
    const next = Math.min(remaining, PAGE_SIZE);
    return (
      <li className="json-row json-more" style={indent}>
        {deep}
        <span className="json-spacer" />
        <span className="muted">
          Showing {formatCount(row.shown)} of {formatCount(row.total)}.
        </span>
        <button type="button" className="json-action" onClick={() => onShowMore(row.owner, row.shown + next)}>
          Show {formatCount(next)} more
        </button>
        {remaining > PAGE_SIZE &&
          (row.total <= SHOW_ALL_LIMIT ? (
            <button type="button" className="json-action" onClick={() => onShowMore(row.owner, row.total)}>
              Show all {formatCount(row.total)}
            </button>
          ) : (
            <button type="button" className="json-action" onClick={() => onShowMore(row.owner, row.shown + LARGER_PAGE)}>
              Show {formatCount(Math.min(remaining, LARGER_PAGE))} more
            </button>
          ))}
      </li>
    );
  }
  const place = { 'aria-level': row.depth + 1, 'aria-posinset': row.position, 'aria-setsize': row.setSize };
  const name = row.name === null ? null : <KeyName name={row.name} />;
  const leaf = (value: ReactNode) => (
    <li className="json-row json-leaf" style={indent} {...place}>
      {deep}
      <span className="json-spacer" />
      {name}
      {name && ': '}
      {value}
    </li>
  );
  if (row.kind === 'branch') {
    const summary = row.isArray
      ? `[${formatCount(row.size)} item${row.size === 1 ? '' : 's'}]`
      : `{${formatCount(row.size)} key${row.size === 1 ? '' : 's'}}`;
    // An empty object or array has nothing to open: it reads as a value.
    if (row.size === 0) return leaf(<span className="json-meta">{row.isArray ? '[]' : '{}'}</span>);
    return (
      <li className="json-row" style={indent} {...place}>
        {deep}
        <button type="button" className="json-toggle" aria-expanded={row.open} onClick={() => onToggle(row.value)}>
          <span className="json-caret" aria-hidden="true" />
          {name}
          {name && ' '}
          <span className="json-meta">{summary}</span>
        </button>
      </li>
    );
  }
  const value = <JsonValue value={row.value} whole={whole} onShowString={(show) => onShowString(row.id, show)} />;
  return leaf(
    maskedAction && row.value === MASKED_VALUE ? (
      <>
        {value} {maskedAction(row.parent, row.name)}
      </>
    ) : (
      value
    ),
  );
}, sameRow);

function KeyName({ name }: { name: string }) {
  if (name.length <= LONG_KEY) return <span className="json-key">{name}</span>;
  return (
    <span className="json-key" title={`A key of ${formatCount(name.length)} characters`}>
      {name.slice(0, LONG_KEY)}
      <span className="json-meta">… ({formatCount(name.length)} characters)</span>
    </span>
  );
}

function JsonValue({ value, whole, onShowString }: { value: unknown; whole: boolean; onShowString(whole: boolean): void }) {
  if (value === MASKED_VALUE) {
    return (
      <span className="json-masked" title="Hidden: the key looks like it holds a secret">
        {MASKED_VALUE} <span className="muted">(hidden)</span>
      </span>
    );
  }
  if (value === HIDDEN_SECRET) return <span className="json-redacted">{HIDDEN_SECRET}</span>;
  if (typeof value === 'string')
    return value.length > LONG_STRING ? (
      <LongString text={value} whole={whole} onShow={onShowString} />
    ) : (
      <span className="json-string">{JSON.stringify(value)}</span>
    );
  if (typeof value === 'number') return <span className="json-number">{formatNumber(value)}</span>;
  if (typeof value === 'boolean') return <span className="json-boolean">{String(value)}</span>;
  return <span className="json-null">null</span>;
}

/** A long string shows its start and its size; the whole of it only when asked. */
function LongString({ text, whole, onShow }: { text: string; whole: boolean; onShow(whole: boolean): void }) {
  const size = useMemo(() => `${formatCount(text.length)} characters, ${formatBytes(utf8Length(text))}`, [text]);
  if (whole) {
    // The button comes first: after a megabyte of text it would be far out of reach.
    return (
      <>
        <button type="button" className="json-action" onClick={() => onShow(false)}>
          Show less
        </button>{' '}
        <span className="json-meta">({size})</span> <span className="json-string">{JSON.stringify(text)}</span>
      </>
    );
  }
  // JSON-quoted like short strings, the closing quote left off: the text goes on.
  const prefix = JSON.stringify(text.slice(0, STRING_PREFIX)).slice(0, -1);
  return (
    <>
      <span className="json-string">{prefix}…</span> <span className="json-meta">({size})</span>{' '}
      <button type="button" className="json-action" onClick={() => onShow(true)}>
        Show all
      </button>
    </>
  );
}
