import { HIDDEN_SECRET } from '../../shared/types.ts';
import { MASKED_VALUE } from '../session-fields.ts';

/** Objects and arrays fold; the first two levels start open. */
export function JsonTree({ value }: { value: unknown }) {
  return (
    <div className="json-tree">
      <JsonNode name={null} value={value} depth={0} />
    </div>
  );
}

function JsonNode({ name, value, depth }: { name: string | null; value: unknown; depth: number }) {
  const label = name === null ? null : <span className="json-key">{name}</span>;
  if (typeof value === 'object' && value !== null) {
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
    const summary = Array.isArray(value) ? `[${entries.length} item${entries.length === 1 ? '' : 's'}]` : `{${entries.length} key${entries.length === 1 ? '' : 's'}}`;
    return (
      <details className="json-branch" open={depth < 2}>
        <summary>
          {label}
          {label && ' '}
          <span className="json-meta">{summary}</span>
        </summary>
        <ul>
          {entries.map(([key, item]) => (
            <li key={key}>
              <JsonNode name={key} value={item} depth={depth + 1} />
            </li>
          ))}
        </ul>
      </details>
    );
  }
  return (
    <div className="json-leaf">
      {label}
      {label && ': '}
      <JsonValue value={value} />
    </div>
  );
}

function JsonValue({ value }: { value: unknown }) {
  if (value === MASKED_VALUE) {
    return (
      <span className="json-masked" title="Hidden: the key looks like it holds a secret">
        {MASKED_VALUE} <span className="muted">(hidden)</span>
      </span>
    );
  }
  if (value === HIDDEN_SECRET) return <span className="json-redacted">{HIDDEN_SECRET}</span>;
  if (typeof value === 'string') return <span className="json-string">"{value}"</span>;
  if (typeof value === 'number') return <span className="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="json-boolean">{String(value)}</span>;
  return <span className="json-null">null</span>;
}
