import { useRef, useState, type FormEvent } from 'react';
import { copyName } from '../../shared/labels.ts';
import type { Panel } from '../../shared/types.ts';
import { useApi } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import { fieldForError } from '../ui/field-errors.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { PlainHttpChoice, typedPlainHttp } from '../ui/plain-http.tsx';
import { TextField } from '../ui/text-field.tsx';

interface AddPanelDialogProps {
  /** Duplicate: a new panel with this one's settings and labels, at the address typed here. */
  copyOf?: Panel;
  onAdded(panel: Panel): void;
  onClose(): void;
}

export function AddPanelDialog({ copyOf, onAdded, onClose }: AddPanelDialogProps) {
  const api = useApi();
  const [address, setAddress] = useState('');
  const [name, setName] = useState(copyOf ? copyName(copyOf.name) : '');
  const [allowPlainHttp, setAllowPlainHttp] = useState(false);
  // The choice is offered only where it applies: an address typed with http://.
  const typedHttp = typedPlainHttp(address);
  const { busy, error, run } = useBusyAction();
  const addressInput = useRef<HTMLInputElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const added = useRef(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(
      async () => {
        const panel = copyOf
          ? await api.duplicatePanel(copyOf.id, { address, name, allowPlainHttp: typedHttp && allowPlainHttp })
          : await api.addPanel({ address, name, allowPlainHttp: typedHttp && allowPlainHttp });
        // The new panel's login form takes focus; the Add button must not take it back.
        added.current = true;
        onAdded(panel);
      },
      (failure) => {
        // Put the cursor where the fix goes.
        requestAnimationFrame(() => (fieldForError(failure) === 'name' ? nameInput : addressInput).current?.focus());
        return failure;
      },
    );
  };

  const field = error ? fieldForError(error) : null;
  return (
    <ModalDialog title={copyOf ? `Duplicate ${copyOf.name}` : 'Add panel'} onClose={onClose} shouldRestoreFocus={() => !added.current}>
      {copyOf && (
        <p className="muted">
          The new panel gets the settings, group, tags and colour of {copyOf.name} ({copyOf.address}), and is signed out. Two panels cannot
          share an address: enter the other installation’s.
        </p>
      )}
      <form onSubmit={submit} noValidate aria-busy={busy}>
        <TextField
          ref={addressInput}
          label="Address"
          name="address"
          placeholder="panel.example.com"
          hint="The panel’s domain, as in your browser. Its API is expected at https://<address>/api."
          autoFocus
          required
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          error={field === 'address' ? error?.message : null}
        />
        {typedHttp && <PlainHttpChoice checked={allowPlainHttp} onChange={setAllowPlainHttp} />}
        <TextField
          ref={nameInput}
          label="Name (optional)"
          name="name"
          placeholder="Defaults to the address"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={field === 'name' ? error?.message : null}
        />
        {error && field === null && (
          <div className="notice notice-error" role="alert">
            <p>{error.message}</p>
          </div>
        )}
        <div className="form-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button-primary" disabled={busy}>
            {busy ? 'Adding…' : copyOf ? 'Duplicate panel' : 'Add panel'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
