import { FleetFileSettings } from './fleet-file-settings.tsx';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { AppStatus } from '../../shared/types.ts';
import { useApi, useStatus, useWindowContext } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import {
  changedSettingsText,
  preferencesDraft,
  preferencesFieldForError,
  preferencesPatch,
  type PreferencesDraft,
} from './preferences-draft.ts';
import { useSettingsSave } from './settings-save.ts';
import { AppearanceSettings } from './appearance-settings.tsx';
import { AlertSettings } from './alert-settings.tsx';
import { BackgroundChecks } from './background-checks.tsx';
import { ModalDialog } from '../ui/modal-dialog.tsx';

/**
 * App-wide settings: saved sign-ins without a keyring, background checks and timeouts, theme and
 * the default email. Shown once main's status is known; each save brings the status back.
 *
 * What is typed is never dropped without a word: one Save for the whole form (Enter in a field,
 * or the button), Done saves what changed and closes (a value main refuses keeps the dialog open
 * at its field), and Esc with changes asks whether to save them, discard them or keep editing.
 * The buttons stay at the dialog's foot, in view however small the window.
 */
export function PreferencesDialog({ onClose }: { onClose(): void }) {
  const status = useStatus().status;
  if (!status) return null;
  return <Preferences status={status} onClose={onClose} />;
}

function Preferences({ status, onClose }: { status: AppStatus; onClose(): void }) {
  const [draft, setDraft] = useState(() => preferencesDraft(status.settings));
  const [asking, setAsking] = useState(false);
  const { busy, error, saved, edited, save: saveSettings } = useSettingsSave();
  const patch = preferencesPatch(status.settings, draft);
  const changed = Object.keys(patch).length > 0;
  const field = error ? preferencesFieldForError(error) : null;
  const fieldError = (name: typeof field) => (error && field === name ? error.message : null);
  const onEdit = <K extends keyof PreferencesDraft>(key: K, value: PreferencesDraft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    edited();
  };
  const form = useRef<HTMLFormElement>(null);
  // A refused value may be scrolled out of view under the buttons: the cursor goes where the fix goes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each refusal moves it, the same field's second one too
  useEffect(() => {
    const input = field && form.current?.elements.namedItem(field);
    if (input instanceof HTMLElement) input.focus();
  }, [error, field]);
  const save = () => saveSettings(patch, (next) => setDraft(preferencesDraft(next.settings)));
  const saveAndClose = async () => {
    setAsking(false);
    if (await save()) onClose();
  };

  return (
    <>
      <ModalDialog title="Preferences" onClose={() => (changed ? setAsking(true) : onClose())} className="modal-wide preferences-dialog">
        <form
          ref={form}
          className="preferences-form"
          noValidate
          aria-busy={busy}
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            void save();
          }}
        >
          <TokenStorage status={status} />
          <BackgroundChecks draft={draft} onEdit={onEdit} fieldError={fieldError} />
          <AlertSettings draft={draft} onEdit={onEdit} fieldError={fieldError} />
          <AppearanceSettings draft={draft} onEdit={onEdit} fieldError={fieldError} />
          <FleetFileSettings />
          {error && (field === null || typeof draft[field] === 'boolean') && (
            <div className="notice notice-error" role="alert">
              <p>{error.message}</p>
            </div>
          )}
          <div className="form-actions preferences-actions">
            <span className="muted" role="status">
              {saved ? 'Saved.' : error ? 'Not saved.' : changed ? 'Changes not saved yet.' : ''}
            </span>
            <button type="submit" disabled={busy || !changed}>
              Save
            </button>
            <button type="button" className="button-primary" disabled={busy} onClick={() => void saveAndClose()}>
              Done
            </button>
          </div>
        </form>
      </ModalDialog>
      {/* Beside the dialog, not in it: Esc in the question must not reach the dialog's own Esc. */}
      {asking && (
        <ModalDialog title="Save your changes to Preferences?" onClose={() => setAsking(false)}>
          <p>You changed {changedSettingsText(patch)}. Save before closing, or close without saving?</p>
          <div className="form-actions">
            {/* biome-ignore lint/a11y/noAutofocus: the question opens on its safe choice, which loses nothing */}
            <button type="button" autoFocus onClick={() => setAsking(false)}>
              Keep editing
            </button>
            <button type="button" className="button-danger" onClick={onClose}>
              Discard changes
            </button>
            <button type="button" className="button-primary" disabled={busy} onClick={() => void saveAndClose()}>
              Save
            </button>
          </div>
        </ModalDialog>
      )}
    </>
  );
}

/** Saved sign-ins without a keyring: a choice that takes effect when clicked, apart from the form's Save. */
function TokenStorage({ status }: { status: AppStatus }) {
  const api = useApi();
  const { statusStore } = useWindowContext();
  const { busy, error, run } = useBusyAction();
  const { level, backend } = status.tokenProtection;
  // Shown at once when clicked; main's answer confirms it, a failure puts it back.
  const [requested, setRequested] = useState<boolean | null>(null);
  const weakAllowed = requested ?? status.settings.storeTokensWithWeakProtection;

  const setWeakAllowed = (allowed: boolean) =>
    run(async () => {
      setRequested(allowed);
      try {
        statusStore.setStatus(await api.updateSettings({ storeTokensWithWeakProtection: allowed }));
      } finally {
        setRequested(null);
      }
    });

  return (
    <section className="preferences-section" aria-labelledby="token-storage-title">
      <h3 id="token-storage-title">Saved sign-ins</h3>
      <p>{protectionText(level, backend)}</p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={weakAllowed}
          // Only an operator on a system without a keyring has this choice to make; one who made it can undo it anywhere.
          disabled={level !== 'weak' && !weakAllowed}
          aria-disabled={busy || undefined}
          onClick={(event) => {
            // A second click while the first is saved would race it.
            if (busy) event.preventDefault();
          }}
          onChange={(event) => void setWeakAllowed(event.target.checked)}
          aria-describedby="weak-protection-hint"
        />
        Store tokens with weak protection on this system
      </label>
      <p id="weak-protection-hint" className="field-hint">
        {level === 'weak'
          ? 'Saves tokens on disk encrypted with a key built into the app, so you stay signed in after a restart. Anyone who can read your files can read these tokens. Off by default; turning it off deletes them from disk.'
          : 'Only needed on a system without a keyring, where the alternative is logging in again after every restart.'}
      </p>
      {error && (
        <div className="notice notice-error" role="alert">
          <p>{error.message}</p>
        </div>
      )}
    </section>
  );
}

function protectionText(level: AppStatus['tokenProtection']['level'], backend: string): string {
  if (level === 'keyring') return `Tokens are saved encrypted by your system’s keyring (${backend}).`;
  if (level === 'weak') {
    return `This system has no keyring (${backend}): the only encryption on offer uses a key built into the app, which protects nothing. Tokens are kept in memory until Paneldeck closes, unless you choose otherwise below.`;
  }
  return 'Secure storage is not available on this system right now: tokens are kept in memory until Paneldeck closes.';
}
