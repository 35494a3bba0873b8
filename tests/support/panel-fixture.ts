import type { PanelHealth } from '../../shared/fleet-state.ts';
import { PANEL_FIELDS, type Panel } from '../../shared/types.ts';

/** A panel as `listPanels` gives it, signed out unless `change` says otherwise; ids differ by `n` (0 to 9). */
export function samplePanel(n: number, change: Partial<Panel> = {}): Panel {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    name: `Panel ${n}`,
    address: `p${n}.example.com`,
    baseUrl: `https://p${n}.example.com/api`,
    allowPlainHttp: false,
    generation: 'public',
    loginPath: '/login',
    sessionPath: '/getSession',
    trustedCertificate: null,
    tokenField: null,
    createdAt: '2030-01-01T00:00:00.000Z',
    lastEmail: null,
    signedIn: false,
    tokenStorage: null,
    tokenKind: null,
    keepSignedIn: true,
    signedOutReason: null,
    lastCheck: null,
    sessionExpiresAt: null,
    panelVersion: null,
    updateAvailable: null,
    group: null,
    tags: [],
    colour: null,
    favourite: false,
    muted: false,
    readOnly: false,
    notes: '',
    fleetFile: null,
    fleetFileName: null,
    accounts: [],
    writeAccount: null,
    ...change,
  };
}

/** A state read of `panel` at `readAt`: nothing down, disk half full, a quarter of the memory used. */
export function sampleHealth(panel: Panel, readAt: string, change: Partial<PanelHealth> = {}): PanelHealth {
  return {
    panelId: panel.id,
    readAt,
    servicesDown: 0,
    downServices: null,
    services: {},
    cpuPercent: 10,
    memory: { usedMb: 1, totalMb: 4 },
    disk: { usedGb: 50, totalGb: 100 },
    version: null,
    problem: null,
    ...change,
  };
}

/**
 * Each panel's settings (the fields `PANEL_FIELDS` marks as settings) and its address, in order
 * of address: what an export and import round trip must keep.
 */
export function settingsOf(panels: readonly Panel[]): Record<string, unknown>[] {
  const settings = (Object.keys(PANEL_FIELDS) as (keyof Panel)[]).filter((field) => PANEL_FIELDS[field] === 'setting');
  return panels
    .map((panel) => Object.fromEntries([['address', panel.address], ...settings.map((field) => [field, panel[field]])]))
    .sort((a, b) => String(a.address).localeCompare(String(b.address)));
}
