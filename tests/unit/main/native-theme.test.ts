import assert from 'node:assert/strict';
import { test } from 'node:test';
import { followTheme } from '../../../electron/main/native-theme.ts';
import type { Theme } from '../../../shared/types.ts';
import { suiteCore } from '../../support/helpers.ts';

const core = suiteCore();

test('the native theme follows the setting at start and after each change, and not after a refused one', async () => {
  const set: Theme[] = [];
  await core().updateSettings({ theme: 'light' });
  const unfollow = followTheme(core(), (theme) => set.push(theme));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(set, ['light'], 'at start');
  await core().updateSettings({ theme: 'dark' });
  await assert.rejects(core().updateSettings({ theme: 'pink' as never }));
  assert.deepEqual(set, ['light', 'dark']);
  unfollow();
});
