import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { restoreBounds, windowStateFile, type DisplayLike } from '../../../electron/main/window-state.ts';
import { tempDir } from '../../support/helpers.ts';

const laptop: DisplayLike = { workArea: { x: 0, y: 25, width: 1440, height: 875 } };
const leftMonitor: DisplayLike = { workArea: { x: -2560, y: 0, width: 2560, height: 1400 } };
const big: DisplayLike = { workArea: { x: 0, y: 0, width: 2560, height: 1400 } };

test('nothing saved, or something damaged: the default size, centred, not maximized', () => {
  for (const saved of [
    null,
    undefined,
    'x',
    42,
    [],
    {},
    { width: '1000', height: 700 },
    { width: NaN, height: 700 },
    { width: Infinity, height: 700 },
    { width: -5, height: 700 },
  ]) {
    assert.deepEqual(restoreBounds(saved, [big]), { width: 1200, height: 800, maximized: false }, JSON.stringify(saved));
  }
});

test('a saved window comes back where it was, with integer bounds', () => {
  assert.deepEqual(restoreBounds({ x: 100.4, y: 80, width: 1300.6, height: 900, maximized: false }, [big]), {
    x: 100,
    y: 80,
    width: 1301,
    height: 900,
    maximized: false,
  });
});

test('sizes never go below 900x600, nor beyond the display they are on', () => {
  assert.deepEqual(restoreBounds({ x: 10, y: 10, width: 300, height: 200 }, [big]), {
    x: 10,
    y: 10,
    width: 900,
    height: 600,
    maximized: false,
  });
  assert.deepEqual(restoreBounds({ x: 0, y: 25, width: 5000, height: 4000 }, [laptop]), {
    x: 0,
    y: 25,
    width: 1440,
    height: 875,
    maximized: false,
  });
  // The defaults too are fitted to a small screen, but never below the minimum.
  const tiny: DisplayLike = { workArea: { x: 0, y: 0, width: 800, height: 560 } };
  assert.deepEqual(restoreBounds(null, [tiny]), { width: 900, height: 600, maximized: false });
  assert.deepEqual(restoreBounds(null, [laptop]), { width: 1200, height: 800, maximized: false });
});

test('a window on a second monitor (negative x) keeps its place while that monitor is there', () => {
  const saved = { x: -2000, y: 100, width: 1600, height: 1000, maximized: true };
  assert.deepEqual(restoreBounds(saved, [laptop, leftMonitor]), { x: -2000, y: 100, width: 1600, height: 1000, maximized: true });
  // The monitor was unplugged: no position (the OS centres it), and the size fits the laptop.
  assert.deepEqual(restoreBounds(saved, [laptop]), { width: 1440, height: 875, maximized: true });
});

test('a window that would show only a sliver, or nothing, loses its position', () => {
  // 20 px of it would be on screen: not enough to grab it.
  assert.equal(restoreBounds({ x: 1420, y: 100, width: 1000, height: 700 }, [laptop]).x, undefined);
  assert.equal(restoreBounds({ x: 100, y: 5000, width: 1000, height: 700 }, [laptop]).y, undefined);
  assert.equal(restoreBounds({ x: 1e300, y: 0, width: 1000, height: 700 }, [laptop]).x, undefined);
  // Half of it on screen is fine.
  assert.equal(restoreBounds({ x: 900, y: 100, width: 1000, height: 700 }, [laptop]).x, 900);
  // Without displays (asked too early) there is nothing to place it on.
  assert.deepEqual(restoreBounds({ x: 10, y: 10, width: 1000, height: 700 }, []), { width: 1000, height: 700, maximized: false });
});

test('only a true maximized counts, and a position without a valid size is dropped', () => {
  assert.equal(restoreBounds({ width: 1000, height: 700, maximized: 'yes' }, [big]).maximized, false);
  assert.equal(restoreBounds({ width: 1000, height: 700, maximized: 1 }, [big]).maximized, false);
  assert.deepEqual(restoreBounds({ x: 10, y: 10, width: null, height: 700 }, [big]), { width: 1200, height: 800, maximized: false });
  assert.deepEqual(restoreBounds({ x: 10, y: '10', width: 1000, height: 700 }, [big]), { width: 1000, height: 700, maximized: false });
});

test('the state file round-trips, and reading a missing or damaged file gives null', async () => {
  const dir = await tempDir();
  try {
    const path = join(dir.path, 'window-state.json');
    const file = windowStateFile(path);
    assert.equal(file.load(), null);
    assert.equal(await file.save({ x: -2000, y: 100, width: 1600, height: 1000, maximized: true }), true);
    assert.deepEqual(file.load(), { x: -2000, y: 100, width: 1600, height: 1000, maximized: true });
    assert.equal(await file.save({ x: 1, y: 2, width: 1000, height: 700, maximized: false }), true);
    assert.deepEqual(restoreBounds(file.load(), [big]), { x: 1, y: 2, width: 1000, height: 700, maximized: false });
    assert.deepEqual(await readdir(dir.path), ['window-state.json'], 'no temp file is left behind');

    await writeFile(path, '{"x": 1, "y"');
    assert.equal(file.load(), null);
    await writeFile(path, `{"pad":"${'x'.repeat(70_000)}"}`);
    assert.equal(file.load(), null, 'an oversized file is not parsed');
  } finally {
    await dir.cleanup();
  }
});

test('saving reports failure instead of throwing, leaves no temp file, and writes only the five fields', async () => {
  const dir = await tempDir();
  try {
    const bounds = { x: 0, y: 0, width: 1000, height: 700, maximized: false };
    // The folder cannot be made: a file stands where it should be.
    await writeFile(join(dir.path, 'not-a-folder'), '');
    assert.equal(await windowStateFile(join(dir.path, 'not-a-folder', 'window-state.json')).save(bounds), false);
    // The target is a folder: the rename fails, the temp file is cleaned up.
    const blocked = join(dir.path, 'blocked.json');
    await mkdir(blocked);
    assert.equal(await windowStateFile(blocked).save(bounds), false);
    assert.deepEqual((await readdir(dir.path)).sort(), ['blocked.json', 'not-a-folder']);

    const path = join(dir.path, 'window-state.json');
    await writeFile(path, '{"x":5,"y":5,"width":1000,"height":700,"maximized":false}');
    // Only the five fields are written, whatever else the object carries.
    const withExtra = { x: 7, y: 7, width: 1000, height: 700, maximized: false, token: 'nope' };
    assert.equal(await windowStateFile(path).save(withExtra), true);
    assert.doesNotMatch(await readFile(path, 'utf8'), /token/);
  } finally {
    await dir.cleanup();
  }
});

test('the state file is private, lands in a folder made for it, and a killed write leaves nothing behind', async () => {
  const dir = await tempDir();
  try {
    const path = join(dir.path, 'new-folder', 'window-state.json');
    assert.equal(await windowStateFile(path).save({ x: 0, y: 0, width: 1000, height: 700, maximized: false }), true);
    if (process.platform !== 'win32') assert.equal((await stat(path)).mode & 0o777, 0o600);

    // A write killed between the temp file and the rename: the next start clears it away.
    const stray = `${path}.tmp-1234-abcd`;
    await writeFile(stray, '{"x":');
    assert.notEqual(windowStateFile(path).load(), null);
    assert.deepEqual(await readdir(join(dir.path, 'new-folder')), ['window-state.json']);
  } finally {
    await dir.cleanup();
  }
});
