import type { PanelBridge } from '../../shared/contract/bridge.ts';

declare global {
  interface Window {
    /** Installed by the preload (or by the browser tests through the same bridge function). */
    readonly panelApi?: PanelBridge;
  }
}

export function getPanelApi(): PanelBridge | null {
  return window.panelApi ?? null;
}
