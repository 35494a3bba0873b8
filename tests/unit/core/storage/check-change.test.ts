import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { changedMaterially, CPU_BAND_POINTS, STALE_AFTER_MS, type CheckedState } from '../../../../electron/core/storage/check-change.ts';

const AT = Date.parse('2026-12-01T10:00:00.000Z');
const iso = (ms: number) => new Date(AT + ms).toISOString();

function state(overrides: Partial<CheckedState> = {}, movedMs = 0): CheckedState {
  return {
    lastCheck: { at: iso(movedMs), ok: true },
    sessionExpiresAt: '2026-12-20T00:00:00.000Z',
    panelVersion: '2.32.2',
    versionReadAt: iso(0),
    updateAvailable: false,
    health: {
      readAt: iso(movedMs),
      servicesDown: 0,
      downServices: [],
      services: { running: 4 },
      cpuPercent: 20,
      memory: { usedMb: 1000, totalMb: 4000 },
      disk: { usedGb: 10, totalGb: 100 },
      problem: null,
    },
    ...overrides,
  };
}

describe('the check state’s material-change rule', () => {
  test('nothing written yet, or times moved back or on by the limit or more, is material', () => {
    assert.equal(changedMaterially(undefined, state()), true);
    assert.equal(changedMaterially(state(), state({}, STALE_AFTER_MS)), true);
    assert.equal(changedMaterially(state({}, 5000), state()), true, 'a time that moved back');
  });

  test('times moved on by less than the limit, with figures within their bands, are not', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: STALE_AFTER_MS - 1 }),
        fc.double({ min: -(CPU_BAND_POINTS - 0.01), max: CPU_BAND_POINTS - 0.01, noNaN: true }),
        fc.integer({ min: -199, max: 199 }),
        (moved, cpu, memory) => {
          const next = state({}, moved);
          next.health = { ...next.health!, cpuPercent: 20 + cpu, memory: { usedMb: 1000 + memory, totalMb: 4000 } };
          return changedMaterially(state(), next) === false;
        },
      ),
    );
  });

  test('a state change is always material, however little time passed', () => {
    const written = state();
    const failing = state({ lastCheck: { at: iso(1), ok: false, error: { code: 'NETWORK', message: 'down' } } });
    assert.equal(changedMaterially(written, failing), true, 'ok to failing');
    assert.equal(changedMaterially(failing, state({}, 1)), true, 'failing to ok');
    const otherError = state({ lastCheck: { at: iso(2), ok: false, error: { code: 'TIMEOUT', message: 'slow' } } });
    assert.equal(changedMaterially(failing, otherError), true, 'a new error');
    assert.equal(changedMaterially(written, state({ sessionExpiresAt: '2026-12-21T00:00:00.000Z' })), true, 'a session end that moved');
    assert.equal(changedMaterially(written, state({ panelVersion: '2.33.0' })), true, 'a version');
    assert.equal(changedMaterially(written, state({ updateAvailable: true })), true, 'an update out');
    const down = state();
    down.health = { ...down.health!, servicesDown: 1, downServices: ['shop/db'] };
    assert.equal(changedMaterially(written, down), true, 'a service down');
    const cpu = state();
    cpu.health = { ...cpu.health!, cpuPercent: 20 + CPU_BAND_POINTS };
    assert.equal(changedMaterially(written, cpu), true, 'CPU out of its band');
    const disk = state();
    disk.health = { ...disk.health!, disk: { usedGb: 10, totalGb: 200 } };
    assert.equal(changedMaterially(written, disk), true, 'a total that changed');
    assert.equal(changedMaterially(written, state({ health: null })), true, 'health gone');
  });
});
