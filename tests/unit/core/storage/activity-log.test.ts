import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ActivityLog, UNKNOWN_OUTCOME, type ActivityStart } from '../../../../electron/core/storage/activity-log.ts';
import { diskFiles, type StoreFiles } from '../../../../electron/core/storage/store-files.ts';
import { entryLine, MESSAGE_LEFT_OUT } from '../../../../electron/core/storage/activity-lines.ts';
import { tempDir } from '../../../support/helpers.ts';

const start = (n = 1): ActivityStart => ({
  panelId: `panel-${n % 3}`,
  panelName: `Panel ${n}`,
  panelAddress: `https://p${n}.example.com`,
  what: { action: 'deploy', projectName: 'shop', serviceName: `web-${n}` },
});

const linesOf = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);

describe('the activity log (activity.jsonl)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let path: string;
  beforeEach(async () => {
    dir = await tempDir('paneldeck-activity-');
    path = join(dir.path, 'activity.jsonl');
  });
  afterEach(() => dir.cleanup());

  test('begin is on disk when it resolves, finish appends the outcome, and a fresh start reads both, newest first', async () => {
    const log = await ActivityLog.open(path);
    assert.equal(existsSync(path), false, 'no file before the first write');
    const first = await log.begin(start(1));
    assert.equal(first.outcome, 'pending');
    assert.deepEqual(
      linesOf(path).map((line) => JSON.parse(line).outcome),
      ['pending'],
    );
    await log.finish(first.id, 'ok', null);
    const second = await log.begin(start(2));
    await log.finish(second.id, 'failed', 'The panel answered HTTP 500.');
    assert.equal(linesOf(path).length, 4);
    await log.close();

    const fresh = await ActivityLog.open(path);
    assert.equal(fresh.problem, null);
    const listed = fresh.list();
    assert.deepEqual(
      listed.map((entry) => [entry.what.serviceName, entry.outcome, entry.message]),
      [
        ['web-2', 'failed', 'The panel answered HTTP 500.'],
        ['web-1', 'ok', null],
      ],
    );
    assert.equal(listed[0]!.at, second.at, 'the entry keeps the time of its begin');
    assert.ok(listed[0]!.finishedAt !== null);
    assert.deepEqual(
      fresh.list({ panelId: 'panel-1' }).map((entry) => entry.id),
      [first.id],
    );
    assert.equal(fresh.list({ limit: 1 }).length, 1);
    await fresh.close();
  });

  test('an entry left pending reads as unknown at the next start, and is written so', async () => {
    const log = await ActivityLog.open(path);
    const begun = await log.begin(start());
    await log.close();
    const fresh = await ActivityLog.open(path);
    const [entry] = fresh.list();
    assert.equal(entry?.id, begun.id);
    assert.equal(entry?.outcome, 'unknown');
    assert.equal(entry?.message, UNKNOWN_OUTCOME.message);
    assert.equal(entry?.finishedAt, null);
    assert.equal(fresh.problem, null, 'a stop before the answer is no damage');
    assert.deepEqual(
      linesOf(path).map((line) => JSON.parse(line).outcome),
      ['unknown'],
    );
    await fresh.close();
  });

  test('bounded: the oldest are dropped, and the file is rewritten with the newest once its lines reach twice the bound', async () => {
    const bound = 5;
    const log = await ActivityLog.open(path, { bound });
    let most = 0;
    for (let n = 1; n <= 23; n++) {
      const entry = await log.begin(start(n));
      await log.finish(entry.id, 'ok', `done ${n}`);
      most = Math.max(most, linesOf(path).length);
    }
    assert.ok(most < 2 * bound, `the file held ${most} lines`);
    assert.deepEqual(
      log.list().map((entry) => entry.message),
      ['done 23', 'done 22', 'done 21', 'done 20', 'done 19'],
    );
    await log.close();
    const fresh = await ActivityLog.open(path, { bound });
    assert.deepEqual(
      fresh.list().map((entry) => entry.message),
      ['done 23', 'done 22', 'done 21', 'done 20', 'done 19'],
    );
    await fresh.close();
  });

  test('damaged lines are skipped, copied aside and reported; a cut last line is dropped quietly; the others are kept', async () => {
    const log = await ActivityLog.open(path);
    const kept = [];
    for (let n = 1; n <= 3; n++) kept.push(await log.begin(start(n)));
    await log.finish(kept[0]!.id, 'ok', null);
    await log.close();
    const [a, b, c, d] = linesOf(path);
    writeFileSync(
      path,
      `${a}\nnot json at all\n${b}\n{"id":"x","what":{"action":"format-disk"}}\n\u0000\u0001\n${c}\n${d}\n${d!.slice(0, 30)}`,
    );

    const fresh = await ActivityLog.open(path);
    assert.equal(fresh.problem?.file, 'activity');
    assert.match(fresh.problem?.message ?? '', /^3 damaged lines of the activity log were skipped/);
    assert.ok(fresh.problem?.copyPath && existsSync(fresh.problem.copyPath), 'the damaged file is kept aside');
    assert.match(fresh.problem.copyPath, /activity\.corrupt-[0-9TZ-]+\.jsonl$/);
    assert.equal(fresh.list().length, 3);
    assert.deepEqual(
      linesOf(path).map((line) => JSON.parse(line).id),
      kept.map((entry) => entry.id),
      'rewritten with the entries alone',
    );
    // Appends after a repair go after the last whole line.
    await fresh.begin(start(4));
    await fresh.close();
    const again = await ActivityLog.open(path);
    assert.equal(again.problem, null);
    assert.equal(again.list().length, 4);
    await again.close();

    // A line cut by a kill during its append: its begin never resolved, nothing was sent.
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"id":"cut","at":"20`);
    const cut = await ActivityLog.open(path);
    assert.equal(cut.problem, null);
    assert.equal(cut.list().length, 4);
    await cut.close();
  });

  test('a message is shortened, kept on one line, and left out when it holds a secret', async () => {
    const log = await ActivityLog.open(path);
    const token = 'tok-3f9a2b7c1d';
    const entries = [];
    for (const message of [
      `line one\nline two\u0007 ${'x'.repeat(500)}`,
      `Invalid token ${token}`,
      `Bad ${encodeURIComponent(`a|${token}`)}`,
    ]) {
      const begun = await log.begin(start());
      entries.push(await log.finish(begun.id, 'failed', message, [token]));
    }
    assert.equal(entries[0]?.message?.length, 300);
    assert.match(entries[0]?.message ?? '', /^line one line two x+…$/);
    assert.equal(entries[1]?.message, MESSAGE_LEFT_OUT);
    assert.equal(entries[2]?.message, MESSAGE_LEFT_OUT);
    assert.ok(!readFileSync(path, 'utf8').includes(token));
    await log.close();
  });

  test('figures: begin() on disk, and a start and compaction at the bound of 10,000', async () => {
    const log = await ActivityLog.open(path);
    const times: number[] = [];
    for (let n = 0; n < 200; n++) {
      const began = performance.now();
      const entry = await log.begin(start(n));
      times.push(performance.now() - began);
      await log.finish(entry.id, 'ok', 'The panel answered.');
    }
    await log.close();
    times.sort((x, y) => x - y);
    // 10,000 entries, each begun and finished: twice the bound in lines, the most the file holds.
    const lines: string[] = [];
    for (let n = 0; n < 10_000; n++) {
      const entry = { id: `id-${n}`, at: new Date(1_700_000_000_000 + n).toISOString(), ...start(n), message: null, finishedAt: null };
      lines.push(JSON.stringify({ ...entry, outcome: 'pending' }));
      lines.push(
        JSON.stringify({ ...entry, outcome: 'ok', message: 'The panel answered HTTP 200 and deployed the service.', finishedAt: entry.at }),
      );
    }
    writeFileSync(path, `${lines.join('\n')}\n`);
    const bytes = readFileSync(path).length;
    const opened = performance.now();
    // More lines than entries: the start rewrites the file whole (the compaction).
    const big = await ActivityLog.open(path);
    const openMs = performance.now() - opened;
    assert.equal(big.list().length, 10_000);
    assert.equal(linesOf(path).length, 10_000);
    const listed = performance.now();
    big.list({ panelId: 'panel-1' });
    const listMs = performance.now() - listed;
    await big.close();
    const median = times[100]!;
    const p95 = times[190]!;
    console.log(
      `activity log figures: begin() median ${median.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms (append + fdatasync); ` +
        `start with compaction of ${(bytes / 1e6).toFixed(1)} MB (20,000 lines -> 10,000) ${openMs.toFixed(0)} ms; list of one panel ${listMs.toFixed(1)} ms`,
    );
  });

  test('entries begun while a write is under way go to disk together, behind one flush; a failed flush takes them all back', async () => {
    let flushes = 0;
    let failNext = false;
    const files: StoreFiles = {
      ...diskFiles,
      async open(...args) {
        const file = await diskFiles.open(...args);
        return {
          ...file,
          async datasync() {
            flushes++;
            if (failNext) {
              failNext = false;
              throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
            }
            return file.datasync();
          },
        };
      },
    };
    const log = await ActivityLog.open(path, { files });
    const begun = await Promise.all(Array.from({ length: 8 }, (_, n) => log.begin(start(n))));
    assert.equal(flushes, 1, 'eight begins at once, one flush');
    assert.deepEqual(
      linesOf(path).map((line) => JSON.parse(line).id),
      begun.map((entry) => entry.id),
    );
    failNext = true;
    const failed = await Promise.allSettled([log.begin(start(20)), log.begin(start(21))]);
    assert.deepEqual(
      failed.map((outcome) => outcome.status),
      ['rejected', 'rejected'],
    );
    assert.equal(log.list().length, 8, 'what could not be written is not listed');
    await log.close();
    assert.equal((await ActivityLog.open(path)).list().length, 8);
  });
});

test('a group of lines a crash tore: its writes were never sent, and read as not sent; a whole group left pending is unknown', async () => {
  const dir = await tempDir('paneldeck-activity-');
  try {
    const path = join(dir.path, 'activity.jsonl');
    const entry = (id: string) => ({
      id,
      at: '2026-12-01T10:00:00.000Z',
      panelId: 'p1',
      panelName: 'Billing',
      panelAddress: 'https://billing.example',
      account: null,
      what: { action: 'restart' as const, projectName: 'shop', serviceName: id.slice(0, 8) },
      outcome: 'pending' as const,
      message: null,
      finishedAt: null,
    });
    const ids = Array.from({ length: 5 }, (_, index) => `0000000${index}-0000-4000-8000-000000000000`);
    const torn = '11111111-1111-4111-8111-111111111111';
    const whole = '22222222-2222-4222-8222-222222222222';
    // A group of three whose third line never reached the disk, then (written before it) a whole group of two.
    writeFileSync(
      path,
      [
        entryLine(entry(ids[0]!), `${whole}/2`),
        entryLine(entry(ids[1]!), `${whole}/2`),
        entryLine(entry(ids[2]!), `${torn}/3`),
        entryLine(entry(ids[3]!), `${torn}/3`),
      ].join(''),
    );
    const log = await ActivityLog.open(path);
    const outcomes = new Map(log.list().map((one) => [one.id, one.outcome]));
    assert.deepEqual(
      ids.slice(0, 4).map((id) => outcomes.get(id)),
      ['unknown', 'unknown', 'not-sent', 'not-sent'],
    );
    assert.match(log.list().find((one) => one.id === ids[2])?.message ?? '', /^Not sent/);
    assert.equal(UNKNOWN_OUTCOME.outcome, 'unknown');
    await log.close();
  } finally {
    await dir.cleanup();
  }
});
