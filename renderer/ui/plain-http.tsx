import { isUnencrypted } from '../../shared/plain-http.ts';
import { useEffect, useRef } from 'react';
import type { Panel } from '../../shared/types.ts';

export { isUnencrypted };

/** Always shown on such a panel, in the list and its header, so the choice is never forgotten. */
export function PlainHttpBadge({ panel }: { panel: Pick<Panel, 'allowPlainHttp' | 'baseUrl'> }) {
  return isUnencrypted(panel) ? <NotEncryptedBadge /> : null;
}

/** The "Not encrypted" mark: on a panel, and on an import's line that would add one. */
export function NotEncryptedBadge() {
  return (
    <span
      className="status-badge plain-http-badge"
      title="Plain HTTP: the password and token cross the network readable by anyone on the path."
    >
      Not encrypted
    </span>
  );
}

/**
 * The operator's explicit choice of plain http:// for a panel on another computer, with what it
 * costs: for one panel (Add panel, its settings), or for several (an import's http:// lines,
 * `label` naming them; `mixed` when only some are chosen).
 */
export function PlainHttpChoice({
  checked,
  onChange,
  label = 'Allow unencrypted HTTP',
  mixed = false,
}: {
  checked: boolean;
  onChange(checked: boolean): void;
  label?: string;
  mixed?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (input.current) input.current.indeterminate = mixed;
  }, [mixed]);
  return (
    <label className="checkbox plain-http-choice">
      <input ref={input} type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span>
        {label}
        <span className="field-hint">
          For a panel without HTTPS on another computer: the password and token cross the network readable by anyone on the path. Not needed
          for this computer (localhost).
        </span>
      </span>
    </label>
  );
}

/** Whether the choice applies to what was typed: an address with http://. */
export function typedPlainHttp(address: string): boolean {
  return /^\s*http:\/\//i.test(address);
}

/** A log in form's warning on such a panel: `secrets` says what crosses ("your password and the token cross"). */
export function UnencryptedLogInWarning({ panel, secrets }: { panel: Pick<Panel, 'allowPlainHttp' | 'baseUrl'>; secrets: string }) {
  if (!isUnencrypted(panel)) return null;
  return (
    <p className="field-error">
      Not encrypted: this panel is reached over plain HTTP, so {secrets} the network readable by anyone on the path.
    </p>
  );
}
