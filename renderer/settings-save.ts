import { useState } from 'react';
import type { PanelApi } from '../shared/contract.ts';
import type { ErrorInfo } from '../shared/errors.ts';
import type { AppSettingsPatch } from '../shared/schemas.ts';
import type { AppStatus } from '../shared/types.ts';
import { failureInfo } from './panel-api.ts';

/**
 * Saving one Preferences section: one save at a time, main's refusal kept to show, "Saved." until
 * the next edit. `after` takes main's answer, so the form shows what was stored.
 */
export function useSettingsSave(api: Pick<PanelApi, 'updateSettings'>, onChanged: (status: AppStatus) => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [saved, setSaved] = useState(false);
  const save = async (patch: AppSettingsPatch, after: (next: AppStatus) => void) => {
    if (busy || Object.keys(patch).length === 0) return;
    setBusy(true);
    setError(null);
    try {
      const next = await api.updateSettings(patch);
      onChanged(next);
      after(next);
      setSaved(true);
    } catch (caught) {
      setError(failureInfo(caught));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, saved, edited: () => setSaved(false), save };
}
