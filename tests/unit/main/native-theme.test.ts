import assert from 'node:assert/strict';
import { test } from 'node:test';
import { followTheme } from '../../../electron/main/native-theme.ts';
import type { Theme } from '../../../shared/types.ts';
import { suiteService } from '../../support/helpers.ts';

const service = suiteService();

test('the native theme follows the setting at start and after each change, and not after a refused one', async () => {
  const set: Theme[] = [];
  await service().updateSettings({ theme: 'light' });
  const unfollow = followTheme(service(), (theme) => set.push(theme));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(set, ['light'], 'at start');
  await service().updateSettings({ theme: 'dark' });
  await assert.rejects(service().updateSettings({ theme: 'pink' as never }));
  assert.deepEqual(set, ['light', 'dark']);
  unfollow();
});
