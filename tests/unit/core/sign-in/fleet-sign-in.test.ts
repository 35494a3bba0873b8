import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { type FleetSignInParts, fleetSignInMethods } from '../../../../electron/core/sign-in/fleet-sign-in.ts';
import type { PanelLogIn } from '../../../../electron/core/sign-in/panel-log-in.ts';
import { PanelError } from '../../../../shared/contract/errors.ts';
import type { PanelEvent } from '../../../../shared/contract/events.ts';
import { countOutcomes } from '../../../../shared/fleet-login.ts';
import type { Panel } from '../../../../shared/types.ts';

/**
 * Cancel racing completions, explored by fast-check's scheduler: each panel's log in (the one log
 * in of a panel, faked) answers when the scheduler says, and Cancel comes after a drawn number of
 * answers. After every step: nothing started after Cancel was acknowledged, never more at once
 * than the concurrency, and the counts add up.
 */

const ids = Array.from({ length: 12 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);

/** Only what the fleet log in reads of its parts: the panels (none on plain http), the concurrency, the events. */
function fakeContext(concurrency: number, events: PanelEvent[]): FleetSignInParts {
  const registry = { get: (id: string) => ({ id, allowPlainHttp: false, baseUrl: 'https://panel.test/api' }) };
  const state = { registry, settings: { get: () => ({ checkConcurrency: concurrency }) } };
  // The fleet log in reads these few fields of the folder; the rest of it is not reached.
  return {
    state: async () => state,
    opened: () => state,
    now: () => new Date('2030-01-01T00:00:00Z'),
    emit: (event: PanelEvent) => events.push(event),
  } as unknown as FleetSignInParts;
}

test('Cancel racing completions: no log in starts after Cancel is acknowledged; bounded; counts add up', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.scheduler(),
      fc.integer({ min: 1, max: ids.length }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 0, max: ids.length }),
      fc.array(fc.constantFrom('ok', 'code', 'wrong'), { minLength: ids.length, maxLength: ids.length }),
      async (s, panels, concurrency, answersBeforeCancel, answers) => {
        const chosen = ids.slice(0, panels);
        const events: PanelEvent[] = [];
        const started: string[] = [];
        const signedIn = new Set<string>();
        let inFlight = 0;
        let startedAtAck: Set<string> | null = null;
        const logInPanel: PanelLogIn = async (panelId) => {
          started.push(panelId);
          inFlight++;
          assert.ok(inFlight <= concurrency, `${inFlight} log ins at once, concurrency ${concurrency}`);
          const answer = answers[ids.indexOf(panelId)];
          try {
            await s.schedule(Promise.resolve(), `answer ${panelId}`);
          } finally {
            inFlight--;
          }
          if (answer === 'code') throw new PanelError('TWO_FACTOR_REQUIRED', 'Enter the code.');
          if (answer === 'wrong') throw new PanelError('INVALID_CREDENTIALS', 'Refused.');
          if (startedAtAck) assert.ok(startedAtAck.has(panelId), `${panelId} signed in after Cancel without having started before`);
          signedIn.add(panelId);
          return { id: panelId } as Panel;
        };
        const core = fleetSignInMethods(fakeContext(concurrency, events), logInPanel);
        const run = core.logInPanels(chosen, { email: 'ops@panel.test', password: 'fleet-password' });
        let results: Awaited<typeof run> | null = null;
        void run.then((value) => (results = value));

        const invariants = () => {
          if (startedAtAck)
            assert.ok(
              started.every((id) => startedAtAck!.has(id)),
              'a log in started after Cancel was acknowledged',
            );
          for (const event of events) {
            assert.equal(event.type, 'logInProgress');
            if (event.type === 'logInProgress') assert.ok(event.done <= event.total && event.total === panels);
          }
        };
        let answered = 0;
        while (results === null) {
          if (answered === answersBeforeCancel && startedAtAck === null) {
            await core.cancelLogIns();
            // Those started as Cancel came reach the log in within a few turns, with no answer given meanwhile.
            for (let turn = 0; turn < 10; turn++) await Promise.resolve();
            startedAtAck = new Set(started);
          }
          invariants();
          if (s.count() > 0) {
            await s.waitOne();
            answered++;
          } else await new Promise((resolve) => setImmediate(resolve));
        }
        invariants();
        const final = results as Awaited<typeof run>;
        const counts = countOutcomes(final);
        assert.equal(final.length, panels);
        assert.equal(
          Object.values(counts).reduce((sum, n) => sum + n, 0),
          panels,
        );
        assert.equal(counts.cancelled + started.length, panels, 'each panel either started once or was cancelled');
        assert.equal(new Set(started).size, started.length);
        assert.equal(counts.signedIn, signedIn.size);
        for (const one of final) if (one.outcome === 'cancelled') assert.ok(!started.includes(one.panelId));
        assert.deepEqual(events.at(-1), { type: 'logInProgress', done: panels, total: panels });
        assert.ok(!JSON.stringify([final, events]).includes('fleet-password'));
      },
    ),
    { numRuns: 300 },
  );
});
