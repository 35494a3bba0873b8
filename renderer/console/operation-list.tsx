import { useDeferredValue, useMemo, useState } from 'react';
import type { Catalogue, CatalogueOperation } from '../../shared/operations-console.ts';
import { searchOperations } from './operation-search.ts';
import { SearchField } from '../ui/search-field.tsx';
import { VirtualRows } from '../ui/virtual-rows.tsx';

/** Two lines: the name, then the summary. */
const ROW_HEIGHT = 50;

interface OperationListProps {
  catalogue: Catalogue;
  selected: string | null;
  onSelect(operation: CatalogueOperation): void;
}

/** The panel's catalogue: search by name and summary, each operation marked read or write. */
export function OperationList({ catalogue, selected, onSelect }: OperationListProps) {
  const [query, setQuery] = useState('');
  const [kind, setKind] = useState<'all' | 'read' | 'write'>('all');
  const shownQuery = useDeferredValue(query);
  const operations = useMemo(() => {
    const found = searchOperations(catalogue.operations, shownQuery);
    return kind === 'all' ? found : found.filter((operation) => operation.kind === kind);
  }, [catalogue.operations, shownQuery, kind]);
  const total = catalogue.operations.length;
  return (
    <section className="console-catalogue" aria-label="Operations">
      <SearchField label="Search the operations" placeholder="Search name or summary" value={query} onSearch={setQuery} />
      <div className="console-catalogue-bar">
        <select aria-label="Which operations" value={kind} onChange={(event) => setKind(event.target.value as typeof kind)}>
          <option value="all">Reads and writes</option>
          <option value="read">Reads only</option>
          <option value="write">Writes only</option>
        </select>
        <span className="muted" role="status">
          {operations.length === total ? `${total} operations` : `${operations.length} of ${total}`}
        </span>
      </div>
      {operations.length === 0 ? (
        <p className="muted">No operation matches. Esc in the search box clears it.</p>
      ) : (
        <VirtualRows
          items={operations}
          rowHeight={ROW_HEIGHT}
          label="The panel’s operations"
          keyOf={(operation) => operation.name}
          row={(operation, placement) => (
            <li className="console-operation" {...placement}>
              <button
                type="button"
                aria-pressed={operation.name === selected}
                title={operation.summary ?? operation.name}
                onClick={() => onSelect(operation)}
              >
                <span className="console-operation-name">
                  <span className={`console-kind console-kind-${operation.kind}`}>{operation.kind === 'read' ? 'Read' : 'Write'}</span>
                  {operation.name}
                </span>
                <span className="console-operation-summary muted">{operation.summary ?? ''}</span>
              </button>
            </li>
          )}
        />
      )}
      {catalogue.skipped.length > 0 && (
        <details className="console-skipped">
          <summary>
            {catalogue.skipped.length} operation{catalogue.skipped.length === 1 ? '' : 's'} left out of the catalogue
          </summary>
          <ul>
            {catalogue.skipped.slice(0, 200).map((skipped) => (
              <li key={skipped.name}>
                <strong>{skipped.name}</strong>: {skipped.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
