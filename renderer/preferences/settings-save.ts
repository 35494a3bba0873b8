import { useState } from 'react';
import type { AppSettingsPatch } from '../../shared/schemas/schemas.ts';
import type { AppStatus } from '../../shared/types.ts';
import { useApi, useWindowContext } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';

/**
 * Saving the Preferences: one save at a time, main's refusal shown until the next edit (a refusal
 * beside the value typed since would say the wrong thing), "Saved." until the next edit too. Main's answer is the window's status; `after` takes it, so the form shows what
 * was stored.
 */
export function useSettingsSave() {
  const api = useApi();
  const { statusStore } = useWindowContext();
  const { busy, error, setError, run } = useBusyAction();
  const [saved, setSaved] = useState(false);
  /** Whether the settings are saved: true too when there was nothing to save. */
  const save = async (patch: AppSettingsPatch, after: (next: AppStatus) => void): Promise<boolean> => {
    if (Object.keys(patch).length === 0) return true;
    return run(async () => {
      const next = await api.updateSettings(patch);
      statusStore.setStatus(next);
      after(next);
      setSaved(true);
    });
  };
  const edited = () => {
    setSaved(false);
    setError(null);
  };
  return { busy, error, saved, edited, save };
}
