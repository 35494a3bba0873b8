import { useState } from 'react';
import type { AppStatus } from '../../shared/types.ts';
import { useApi, useWindowContext, useWindowState } from '../app-context.tsx';
import { useBusyAction } from '../busy-action.ts';
import { AppearanceSettings } from './appearance-settings.tsx';
import { BackgroundChecks } from './background-checks.tsx';
import { ModalDialog } from './modal-dialog.tsx';

/**
 * App-wide settings: saved sign-ins without a keyring, background checks and timeouts, theme and
 * the default email. Shown once main's status is known; each save brings the status back.
 */
export function PreferencesDialog({ onClose }: { onClose(): void }) {
  const status = useWindowState().status;
  if (!status) return null;
  return <Preferences status={status} onClose={onClose} />;
}

function Preferences({ status, onClose }: { status: AppStatus; onClose(): void }) {
  const api = useApi();
  const { windowStore } = useWindowContext();
  const { busy, error, run } = useBusyAction();
  const { level, backend } = status.tokenProtection;
  // Shown at once when clicked; main's answer confirms it, a failure puts it back.
  const [requested, setRequested] = useState<boolean | null>(null);
  const weakAllowed = requested ?? status.settings.storeTokensWithWeakProtection;

  const setWeakAllowed = (allowed: boolean) =>
    run(async () => {
      setRequested(allowed);
      try {
        windowStore.setStatus(await api.updateSettings({ storeTokensWithWeakProtection: allowed }));
      } finally {
        setRequested(null);
      }
    });

  return (
    <ModalDialog title="Preferences" onClose={onClose} className="modal-wide">
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
      <BackgroundChecks status={status} />
      <AppearanceSettings status={status} />
      <div className="form-actions">
        <button type="button" className="button-primary" onClick={onClose}>
          Done
        </button>
      </div>
    </ModalDialog>
  );
}

function protectionText(level: AppStatus['tokenProtection']['level'], backend: string): string {
  if (level === 'keyring') return `Tokens are saved encrypted by your system’s keyring (${backend}).`;
  if (level === 'weak') {
    return `This system has no keyring (${backend}): the only encryption on offer uses a key built into the app, which protects nothing. Tokens are kept in memory until Paneldeck closes, unless you choose otherwise below.`;
  }
  return 'Secure storage is not available on this system right now: tokens are kept in memory until Paneldeck closes.';
}
