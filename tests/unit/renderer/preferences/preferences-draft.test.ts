import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../../../electron/core/storage/app-settings.ts';
import { PanelError } from '../../../../shared/contract/errors.ts';
import {
  changedSettingsText,
  preferencesDraft,
  preferencesFieldForError,
  preferencesPatch,
} from '../../../../renderer/preferences/preferences-draft.ts';

/** The whole Preferences form as one draft: one patch for one Save, the question on Esc in words. */

test('one patch for every section: untouched sends nothing; typed values go, the email as typed', () => {
  const draft = preferencesDraft(DEFAULT_SETTINGS);
  assert.deepEqual(preferencesPatch(DEFAULT_SETTINGS, draft), {});
  const typed = { ...draft, requestTimeoutSeconds: '30', theme: 'dark' as const, defaultEmail: ' ops@example.com ' };
  assert.deepEqual(preferencesPatch(DEFAULT_SETTINGS, typed), {
    requestTimeoutSeconds: 30,
    theme: 'dark',
    defaultEmail: ' ops@example.com ',
  });
  assert.equal(changedSettingsText(preferencesPatch(DEFAULT_SETTINGS, typed)), 'Request timeout, Theme and Default email');
  assert.equal(changedSettingsText({ defaultEmail: 'a@b.c' }), 'Default email');
});

test("main's refusal goes under its field, the email's included", () => {
  const info = (message: string) => new PanelError('INVALID_INPUT', message).toInfo();
  assert.equal(preferencesFieldForError(info('Default email must look like name@example.com.')), 'defaultEmail');
  assert.equal(preferencesFieldForError(info('Checks at once must be at most 64.')), 'checkConcurrency');
  assert.equal(preferencesFieldForError(info('Something else.')), null);
});
