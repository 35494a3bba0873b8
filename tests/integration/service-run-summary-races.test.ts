import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import type { FetchLike } from '../../electron/core/index.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import type { ServiceActionItem } from '../../shared/fleet-services.ts';
import { runSummary } from '../../renderer/services/all-services-actions.ts';
import { phaseText } from '../../renderer/services/service-action-plan.ts';
import { startServiceRun } from '../../renderer/services/service-action-run.ts';
import { routePanelEvent, type EventTargets } from '../../renderer/window/event-router.ts';
import { ServiceActionStore, serviceActionKey } from '../../renderer/window/service-action-store.ts';
import { tempDir } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel } from '../support/reference-panel/server.ts';
import { closeAll, coreWithEvents, EASYPANEL_GENERATIONS, onlyServices, startGenerations } from '../support/signed-in-core.ts';

/**
 * Issue 35 (10): "the run's summary said 12 done while four rows still said under way". A restart
 * of services across the three generations' reference panels, run by the real core (real HTTP) and
 * started by the window's real run code, with fast-check's scheduler deciding when each request
 * leaves, when each of main's events reaches the window (in the order main sent them, as its
 * channel keeps them), when the answer to the window's call does (another way into the window,
 * whose order to the events the window must not rely on), and whether the window is loaded again
 * meanwhile (it then takes up main's run from `getServiceActionRun`, an answer older than the
 * events that may come before it). After every step: the summary's done count is the number of
 * the run's rows that say done, and no row under way is counted done. Once all is heard: the run
 * is over in the window and no row says under way or waiting.
 */

const APPS = ['web', 'api', 'worker'] as const;
const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };

let panels: Map<string, ReferencePanel>;
before(async () => {
  panels = await startGenerations();
});
after(() => closeAll(panels));

/** A window: its service actions as the views read them, and what it has heard. */
interface Window {
  store: ServiceActionStore;
  targets: EventTargets;
  /** How many of main's events sent it has heard: it hears those sent from its start on. */
  heard: number;
}

function openWindow(from: number): Window {
  const store = new ServiceActionStore();
  const targets = { serviceActionStore: store } as unknown as EventTargets;
  return { store, targets, heard: from };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Waits until main can go no further without the scheduler: something is scheduled, nothing is on
 * the wire, and nothing changed for a few turns of the event loop (its activity log written). The
 * scheduler then chooses among all that is ready (requests, events, answers), so that events can
 * pile up behind an answer.
 */
async function quiet(s: fc.Scheduler, onTheWire: () => number, sent: () => number, over: () => boolean): Promise<void> {
  let seen = '';
  for (let still = 0; still < 10 && !over(); ) {
    await turn();
    const now = `${onTheWire()} ${sent()} ${s.count()}`;
    still = now === seen && onTheWire() === 0 && s.count() > 0 ? still + 1 : 0;
    seen = now;
  }
}

/** The run's rows as the table says them, and its summary's done count (null while it runs). */
function whatIsShown({ store }: Window, keys: readonly string[]) {
  const { states, run } = store.getSnapshot();
  const rows = keys.map((key) => {
    const state = states.get(key);
    return state ? phaseText(state) : '';
  });
  const summary = run ? runSummary(run, states, (id) => `Panel ${id}`) : null;
  const counted = summary === null ? null : Number(/: (\d+) done/.exec(summary.text)?.[1] ?? Number.NaN);
  return { rows, summary: summary?.text ?? null, counted, run };
}

test('a run’s summary counts done exactly the rows that say done, whatever the order the window hears main in', async () => {
  const styles = [...EASYPANEL_GENERATIONS];
  const allItems = styles.flatMap((style) => APPS.map((app) => ({ style, app })));
  await fc.assert(
    fc.asyncProperty(
      fc.scheduler(),
      fc.shuffledSubarray(allItems, { minLength: 2 }),
      fc.oneof(fc.constant(null), fc.nat(40)),
      async (s, chosen, reloadAt) => {
        const dir = await tempDir();
        let gated = false;
        // Requests on the wire, to their answer's last byte: the scheduler chooses only once none is.
        let onTheWire = 0;
        const sendNow = async (url: string, init?: RequestInit) => {
          onTheWire++;
          try {
            const answer = await fetch(url, init);
            return new Response(await answer.arrayBuffer(), { status: answer.status, headers: answer.headers });
          } finally {
            onTheWire--;
          }
        };
        const fetchThroughScheduler: FetchLike = (url, init) =>
          gated ? s.schedule(Promise.resolve(), new URL(url).pathname).then(() => sendNow(url, init)) : fetch(url, init);
        const { core, events } = coreWithEvents(dir.path, { fetch: fetchThroughScheduler });
        let window = openWindow(events.length);
        // Main's events on their one channel: each reaches the window in the order sent, when the scheduler says.
        const hearNext = (listener: Window) => {
          const event = events[listener.heard++];
          // The run's events go where the window routes them; the others (activity, panels) concern stores not looked at here.
          if (event?.type === 'serviceActionChanged' || event?.type === 'serviceActionsEnded') routePanelEvent(event, listener.targets);
        };
        const hearFromNow = () => {
          window.heard = events.length;
          const sentBefore = events.push.bind(events);
          events.push = (...sent: PanelEvent[]) => {
            const length = sentBefore(...sent);
            const listener = window;
            for (const event of sent) void s.schedule(Promise.resolve(), `event ${event.type}`).then(() => hearNext(listener));
            return length;
          };
        };
        try {
          const ids = new Map<string, string>();
          for (const style of styles) {
            const panel = panels.get(style)!;
            onlyServices(panel, ...APPS.map((name) => ({ projectName: 'shop', name, type: 'app' as const })));
            const { id } = await core.addPanel({ address: panel.url, name: style });
            await core.logIn(id, credentials);
            ids.set(style, id);
          }
          const items: ServiceActionItem[] = chosen.map(({ style, app }) => ({
            panelId: ids.get(style)!,
            projectName: 'shop',
            serviceName: app,
          }));
          const keys = items.map((item) => serviceActionKey(item.panelId, item.projectName, item.serviceName));
          // Only what is sent from now on counts: the log ins' events are not the run's.
          hearFromNow();
          gated = true;
          let answered = false;
          const first = window;
          startServiceRun(
            {
              api: {
                runServiceActions: (asked, action) =>
                  core
                    .runServiceActions(asked, action)
                    .then((results) =>
                      s.schedule(Promise.resolve(results), 'answer to runServiceActions').finally(() => (answered = true)),
                    ),
                cancelServiceActions: () => core.cancelServiceActions(),
              },
              serviceActionStore: first.store,
              statusStore: { showNotice: () => undefined },
            },
            'fleet',
            'restart',
            items,
          );
          for (let step = 0; !(answered && s.count() === 0); step++) {
            if (step === reloadAt) {
              // The window is loaded again: it listens first, then asks main for the run it holds.
              window = openWindow(events.length);
              const reloaded = window;
              void core.getServiceActionRun().then((run) =>
                s.schedule(Promise.resolve(run), 'answer to getServiceActionRun').then((held) => {
                  if (held) reloaded.store.adoptRun(held);
                }),
              );
            }
            await quiet(
              s,
              () => onTheWire,
              () => events.length,
              () => answered && s.count() === 0,
            );
            if (s.count() > 0) await s.waitOne();
            const shown = whatIsShown(window, keys);
            if (shown.counted === null) continue;
            const done = shown.rows.filter((row) => row === 'Restart done').length;
            const underWay = shown.rows.filter((row) => row === 'Restart under way').length;
            assert.equal(shown.counted, done, `step ${step}: "${shown.summary}" over rows ${JSON.stringify(shown.rows)}`);
            assert.ok(shown.counted + underWay <= keys.length, `step ${step}: an under-way row counted done`);
          }
          const end = whatIsShown(window, keys);
          assert.ok(end.run === null || end.run.results !== null, `the run still under way in the window: ${JSON.stringify(end.rows)}`);
          for (const row of end.rows) assert.doesNotMatch(row, /under way|waiting/, `rows at the end: ${JSON.stringify(end.rows)}`);
        } finally {
          gated = false;
          while (s.count() > 0) await s.waitOne();
          await dir.cleanup();
        }
      },
    ),
    { numRuns: 150 },
  );
});
