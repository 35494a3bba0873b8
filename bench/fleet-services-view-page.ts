import type { PanelServices } from '../shared/fleet-services.ts';
import type { Panel } from '../shared/types.ts';
import type { BenchAnswers, BenchWindow } from './bench-page.ts';

/**
 * The fake main of bench/fleet-services-view.ts, in the page: `count` signed-in panels (one in ten
 * red) with `perPanel` services each, answered by listPanels and getFleetServices after a copy
 * standing in for IPC's (left out of the longest tasks); and the probe of the first row painted
 * after the click on the panel list's All services.
 */

// In the page: serialised by Playwright, so it uses nothing from this module but types.
export interface Setup {
  panels: number;
  perPanel: number;
  row: string;
  template: Panel;
}
export interface Probe {
  clickedAt: number | null;
  firstRowAt: number | null;
}
export type ProbeWindow = BenchWindow & { __probe: Probe };

export function installFakeMain({ panels: count, perPanel, row, template }: Setup): void {
  const page = window as unknown as ProbeWindow;
  const now = new Date().toISOString();
  const panels: Panel[] = Array.from({ length: count }, (_, index) => ({
    ...template,
    id: `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
    // The first is the one bench-page.ts chooses.
    name: index === 0 ? 'Bench panel' : `Client ${String(index).padStart(4, '0')} ${['prod', 'staging', 'dev'][index % 3]}`,
    address: `client-${index}.example.net`,
    baseUrl: `https://client-${index}.example.net/api`,
    signedIn: true,
    tokenStorage: 'keyring',
    colour: index % 10 === 0 ? 'red' : null,
    lastCheck: { at: now, ok: true },
  }));
  const projects = ['shop', 'blog', 'crm'];
  const names = ['web', 'worker', 'db', 'cache', 'api', 'cron', 'mail', 'search', 'files', 'admin'];
  const types = ['app', 'app', 'postgres', 'redis', 'app', 'compose', 'app', 'app', 'box', 'app'];
  let serial = 0;
  const services: PanelServices[] = panels.map((panel, index) => ({
    panelId: panel.id,
    readAt: now,
    truncated: false,
    problem: index % 50 === 49 ? { at: now, code: 'TIMEOUT', message: 'The panel did not answer within 15 seconds.' } : null,
    services: Array.from({ length: perPanel }, (_, at) => {
      const n = serial++;
      const state = n % 13 === 5 ? 'down' : n % 17 === 3 ? 'stopped' : 'running';
      const figures = index % 3 !== 2;
      return {
        projectName: projects[at % projects.length]!,
        name: names[at % names.length]!,
        type: types[at % types.length]!,
        state,
        replicas: { actual: state === 'running' ? 1 : 0, desired: state === 'stopped' ? 0 : 1 },
        cpuPercent: figures ? (n * 7) % 100 : null,
        memoryMb: figures ? 64 + ((n * 37) % 2000) : null,
      };
    }),
  }));
  const probe: Probe = { clickedAt: null, firstRowAt: null };
  Object.defineProperty(page, '__probe', { value: probe });
  window.addEventListener(
    'click',
    (event) => {
      if ((event.target as Element | null)?.closest('button')?.textContent !== 'All services') return;
      probe.clickedAt = Math.min(event.timeStamp, performance.now());
      const rows = new MutationObserver(() => {
        if (!document.querySelector(row)) return;
        rows.disconnect();
        requestAnimationFrame(() => setTimeout(() => (probe.firstRowAt = performance.now()), 0));
      });
      rows.observe(document, { childList: true, subtree: true });
    },
    { capture: true },
  );
  const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  /** `value` copied (IPC's stand-in, left out of the longest tasks) and handed over a task later. */
  const copied = async <T>(value: T): Promise<T> => {
    await nextTask();
    const started = performance.now();
    const copy = structuredClone(value);
    page.__benchProbe.skips.push({ start: started, end: performance.now() });
    await nextTask();
    return copy;
  };
  const answers: BenchAnswers = {
    'panelApi:listPanels': async () => copied(panels),
    'panelApi:getFleetServices': async () => copied(services),
    'panelApi:getFleetState': async () => copied([]),
  };
  Object.assign(page.__benchAnswers, answers);
}
