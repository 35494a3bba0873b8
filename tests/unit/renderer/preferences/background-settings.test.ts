import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseArguments } from '../../../../shared/contract/contract.ts';
import { PanelError } from '../../../../shared/contract/errors.ts';
import type { AppSettings } from '../../../../shared/types.ts';
import { DEFAULT_SETTINGS } from '../../../../electron/core/storage/app-settings.ts';
import { backgroundDraft, backgroundFieldForError, backgroundPatch } from '../../../../renderer/preferences/background-settings.ts';
import { sessionEndsText } from '../../../../renderer/ui/panel-status.ts';

/** The Preferences form's background settings, and the header's countdown, as pure functions. */

const settings: AppSettings = { ...DEFAULT_SETTINGS };

test('an untouched form sends nothing; each changed field goes alone', () => {
  const draft = backgroundDraft(settings);
  assert.deepEqual(backgroundPatch(settings, draft), {});
  assert.deepEqual(backgroundPatch(settings, { ...draft, checkIntervalMinutes: ' 0 ' }), { checkIntervalMinutes: 0 });
  assert.deepEqual(backgroundPatch(settings, { ...draft, checkConcurrency: '4', notifyBeforeExpiry: false }), {
    checkConcurrency: 4,
    notifyBeforeExpiry: false,
  });
  assert.deepEqual(backgroundPatch(settings, { ...draft, expiryWarningMinutes: '10.0' }), {}, 'the same number written otherwise');
});

test('what is not a number goes as NaN, so main refuses it with the field\u2019s own message', () => {
  const draft = backgroundDraft(settings);
  for (const typed of ['', '   ', 'five', '1,5']) {
    const patch = backgroundPatch(settings, { ...draft, checkIntervalMinutes: typed });
    assert.ok(Number.isNaN(patch.checkIntervalMinutes), JSON.stringify(typed));
  }
});

test('each of main\u2019s messages lands on its field; anything else on the form as a whole', () => {
  const draft = backgroundDraft(settings);
  const cases: [Partial<typeof draft>, string][] = [
    [{ checkIntervalMinutes: '' }, 'checkIntervalMinutes'],
    [{ checkIntervalMinutes: '1441' }, 'checkIntervalMinutes'],
    [{ checkConcurrency: '0' }, 'checkConcurrency'],
    [{ checkConcurrency: '2.5' }, 'checkConcurrency'],
    [{ expiryWarningMinutes: '-1' }, 'expiryWarningMinutes'],
  ];
  for (const [change, field] of cases) {
    let caught: unknown;
    try {
      parseArguments('updateSettings', [backgroundPatch(settings, { ...draft, ...change })]);
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof PanelError, JSON.stringify(change));
    assert.equal(backgroundFieldForError(caught.toInfo()), field, caught.message);
  }
  assert.equal(
    backgroundFieldForError({ code: 'INVALID_INPUT', message: 'Notify before expiry must be true or false.' }),
    'notifyBeforeExpiry',
  );
  assert.equal(backgroundFieldForError({ code: 'STORAGE', message: 'Check interval could not be saved.' }), null);
  assert.equal(backgroundFieldForError({ code: 'INVALID_INPUT', message: 'Unexpected field: "x".' }), null);
});

test('the header\u2019s countdown counts whole minutes left, reads hours past an hour, and is gone once the session ended', () => {
  const now = Date.UTC(2030, 0, 1, 12, 0, 0);
  const at = (ms: number) => new Date(now + ms).toISOString();
  assert.equal(sessionEndsText(at(9 * 60_000), now), 'Session ends in 9 min');
  assert.equal(sessionEndsText(at(10 * 60_000 - 1), now), 'Session ends in 9 min', 'as the session view counts: whole minutes');
  assert.equal(sessionEndsText(at(8 * 60_000 + 1), now), 'Session ends in 8 min');
  assert.equal(sessionEndsText(at(5_000), now), 'Session ends in under a minute');
  assert.equal(sessionEndsText(at(60 * 60_000), now), 'Session ends in 1 h');
  assert.equal(sessionEndsText(at(125 * 60_000), now), 'Session ends in 2 h 5 min');
  assert.equal(sessionEndsText(at(0), now), null);
  assert.equal(sessionEndsText(at(-60_000), now), null);
  assert.equal(sessionEndsText('not a date', now), null);
});
