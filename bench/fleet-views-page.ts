import type { Alert } from '../shared/alerts.ts';
import type { PanelBackups } from '../shared/backups.ts';
import type { CertificateRow } from '../shared/certificates.ts';
import type { TimelineEntry, TimelineList } from '../shared/timeline.ts';
import type { Panel } from '../shared/types.ts';
import type { BenchWindow } from './bench-page.ts';

/**
 * The fake main of bench/fleet-views.ts, in the page: `count` signed-in panels, and for the view
 * measured its rows over them (a backup schedule or an unprotected database per panel, a
 * certificate per panel, an activity entry per panel, an alert per panel), answered after a copy
 * standing in for IPC's (left out of the longest tasks); and the probe of the first row painted
 * after the click on the view's button.
 */

export type FleetView = 'backups' | 'certificates' | 'activity' | 'alerts';

// In the page: serialised by Playwright, so it uses nothing from this module but types.
export interface ViewSetup {
  view: FleetView;
  panels: number;
  row: string;
  /** The panel list's button that opens the view: its click starts the measure. */
  button: string;
  template: Panel;
}
export interface ViewProbe {
  clickedAt: number | null;
  firstRowAt: number | null;
}
export type ViewWindow = BenchWindow & { __viewProbe: ViewProbe };

export function installViewsMain({ view, panels: count, row, button, template }: ViewSetup): void {
  const page = window as unknown as ViewWindow;
  const now = Date.now();
  const iso = (ago: number) => new Date(now - ago).toISOString();
  const panels: Panel[] = Array.from({ length: count }, (_, index) => ({
    ...template,
    id: `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
    // The first is the one bench-page.ts chooses.
    name: index === 0 ? 'Bench panel' : `Client ${String(index).padStart(5, '0')} ${['prod', 'staging', 'dev'][index % 3]}`,
    address: `client-${index}.example.net`,
    baseUrl: `https://client-${index}.example.net/api`,
    group: `Client ${String(Math.floor(index / 10)).padStart(4, '0')}`,
    signedIn: true,
    tokenStorage: 'keyring',
    colour: index % 10 === 0 ? 'red' : null,
    lastCheck: { at: iso(60_000), ok: true },
  }));
  const probe: ViewProbe = { clickedAt: null, firstRowAt: null };
  Object.defineProperty(page, '__viewProbe', { value: probe });

  /** `value` after a structured copy, as IPC copies it; the copy is skipped in the longest tasks. */
  const copied = async <T>(value: T): Promise<T> => {
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    const start = performance.now();
    const copy = structuredClone(value);
    page.__benchProbe.skips.push({ start, end: performance.now() });
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    return copy;
  };

  const backups = (): PanelBackups[] =>
    panels.map((panel, index) => ({
      panelId: panel.id,
      readAt: iso(3_600_000),
      problem: index % 97 === 13 ? 'The panel did not answer within 15 seconds.' : null,
      unprotected: index % 7 === 3 ? [{ projectName: 'shop', serviceName: 'cache' }] : [],
      backups: [
        {
          kind: 'database',
          id: `schedule-${index}`,
          projectName: 'shop',
          serviceName: 'db',
          schedule: '0 3 * * *',
          enabled: index % 11 !== 4,
          lastRun: { at: iso(20 * 3_600_000), status: index % 23 === 5 ? 'error' : 'done' },
        },
      ],
    }));
  const certificates = (): CertificateRow[] =>
    panels.map((panel, index) => ({
      panelId: panel.id,
      projectName: 'shop',
      serviceName: 'web',
      host: `shop.client-${index}.example.net`,
      validTo: new Date(now + ((index % 90) - 5) * 86_400_000).toISOString(),
      daysLeft: (index % 90) - 5,
      problem: index % 53 === 7 ? 'No answer from the domain within 10 seconds.' : null,
    }));
  const kinds = ['restart', 'deploy', 'stop', 'start'];
  const outcomes: TimelineEntry['outcome'][] = ['ok', 'ok', 'failed', 'unknown', 'ok'];
  const timeline = (): TimelineList => ({
    bound: count,
    unread: [],
    entries: panels.map((panel, index) => ({
      id: `paneldeck:${index}`,
      source: index % 2 ? 'panel' : 'paneldeck',
      at: iso(index * 60_000),
      panelId: panel.id,
      panelName: panel.name,
      projectName: 'shop',
      serviceName: 'web',
      kind: kinds[index % kinds.length]!,
      operation: null,
      outcome: outcomes[index % outcomes.length]!,
      who: index % 2 ? 'ops@example.com' : 'Paneldeck (ops@example.com)',
      whoKind: index % 2 ? 'person' : 'paneldeck',
      message: null,
    })),
  });
  const alerts = (): Alert[] =>
    panels.map((panel, index) => ({
      id: `${iso(index * 60_000)}-${index}`,
      at: iso(index * 60_000),
      panelId: panel.id,
      panelName: panel.name,
      kind: index % 3 === 0 ? 'serviceDown' : index % 3 === 1 ? 'diskFull' : 'unreachable',
      message: index % 3 === 0 ? 'shop/web is down.' : index % 3 === 1 ? 'The disk is 93% full.' : 'The panel did not answer.',
      tab: index % 3 === 0 ? 'services' : 'overview',
      service: index % 3 === 0 ? 'shop/web' : null,
      host: null,
      resolvedAt: index % 5 === 0 ? iso(index * 30_000) : null,
      acknowledgedAt: index % 7 === 0 ? iso(index * 20_000) : null,
    }));

  Object.assign(page.__benchAnswers, {
    'panelApi:listPanels': async () => copied(panels),
    'panelApi:listBackups': async () => copied(view === 'backups' ? backups() : []),
    'panelApi:listCertificates': async () => copied(view === 'certificates' ? certificates() : []),
    'panelApi:listTimeline': async () => copied(view === 'activity' ? timeline() : { entries: [], bound: 0, unread: [] }),
    'panelApi:listAlerts': async () => copied(view === 'alerts' ? alerts() : []),
    'panelApi:listFleetFiles': async () => copied([]),
  });

  window.addEventListener(
    'click',
    (event) => {
      const target = event.target instanceof Element ? event.target.closest('button') : null;
      if (target?.textContent?.trim() === button) probe.clickedAt ??= event.timeStamp;
    },
    { capture: true },
  );
  // The first row of the view painted after the click: the frame after it appears.
  const watch = () => {
    if (probe.clickedAt === null || probe.firstRowAt !== null) return;
    if (document.querySelector(row)) requestAnimationFrame(() => setTimeout(() => (probe.firstRowAt ??= performance.now()), 0));
  };
  new MutationObserver(watch).observe(document, { childList: true, subtree: true });
}
