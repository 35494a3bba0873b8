import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, test } from 'node:test';
import { type Core, createCore } from '../../electron/core/index.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import type { Panel } from '../../shared/types.ts';
import { rejectsWith, tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';

/**
 * Two operators' Paneldecks (two data folders, two cores) sharing one fleet file in a git working
 * tree, over the real file system: a panel added, renamed, regrouped or removed by one appears for
 * the other (each waits on the other's events, never a fixed delay); a rename is a one-line `git
 * diff`; neither one's token or email ever reaches the file, in any encoding; edits of different
 * panels made at once both survive, one field changed apart on both sides is a conflict kept for
 * the operator; a damaged file is refused and never written over; read-only in the file is
 * read-only for both.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };

let repo: Awaited<ReturnType<typeof tempDir>>;
let dataA: Awaited<ReturnType<typeof tempDir>>;
let dataB: Awaited<ReturnType<typeof tempDir>>;
let fleetPath: string;
let reference: ReferencePanel;
const operators: { core: Core; events: PanelEvent[]; waiters: Set<() => void> }[] = [];

/** One operator's Paneldeck: its own data folder and keyring, the fleet file chosen in its dialogs. */
function operator(dataDir: string) {
  const waiters = new Set<() => void>();
  const events: PanelEvent[] = [];
  const core = createCore({
    dataDir,
    encryption: testEncryption(),
    timeoutMs: 3000,
    fleetFilePollMs: 100,
    chooseFleetFile: async () => fleetPath,
    chooseNewFleetFile: async () => fleetPath,
    emit: (event) => {
      events.push(event);
      for (const wake of waiters) wake();
    },
  });
  const one = { core, events, waiters };
  operators.push(one);
  return one;
}

/** Resolves once `holds` is true of the operator's list, checked at each of its events (and now). */
async function until(who: (typeof operators)[number], holds: (panels: Panel[]) => boolean, what: string): Promise<Panel[]> {
  return eventually(
    who,
    async () => {
      const panels = await who.core.listPanels();
      return holds(panels) ? panels : undefined;
    },
    what,
  );
}

/** Resolves with what `found` gives once it gives something, asked now and at each of the operator's events. */
async function eventually<T>(who: (typeof operators)[number], found: () => Promise<T | undefined>, what: string): Promise<T> {
  for (;;) {
    const value = await found();
    if (value !== undefined) return value;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`never: ${what}`)), 20_000);
      const wake = () => {
        clearTimeout(timer);
        who.waiters.delete(wake);
        resolve();
      };
      who.waiters.add(wake);
    });
  }
}

const git = (...args: string[]) => execFileSync('git', ['-C', repo.path, ...args], { encoding: 'utf8' });
const named = (name: string) => (panels: Panel[]) => panels.find((panel) => panel.name === name);

let a: (typeof operators)[number];
let b: (typeof operators)[number];

before(async () => {
  repo = await tempDir();
  dataA = await tempDir();
  dataB = await tempDir();
  fleetPath = join(repo.path, 'acme.paneldeck-fleet.json');
  git('init', '-q');
  git('config', 'user.email', 'ops@acme.example');
  git('config', 'user.name', 'Ops');
  reference = await startReferencePanel({ style: 'public' });
  a = operator(dataA.path);
  b = operator(dataB.path);
});
after(async () => {
  await reference.close();
  for (const dir of [repo, dataA, dataB]) await dir.cleanup();
});

test('a fleet file made by one is followed by the other: its panels join the list, marked with the file, signed out', async () => {
  const shop = await a.core.addPanel({ address: reference.url, name: 'Shop', group: 'Acme', tags: ['eu'], colour: 'red' });
  await a.core.logIn(shop.id, credentials);
  const made = await a.core.createFleetFile([shop.id]);
  assert.ok(made);
  assert.equal(made.panels, 1);
  git('add', '.');
  git('commit', '-qm', 'fleet');
  const opened = await b.core.openFleetFile();
  assert.ok(opened);
  const seen = named('Shop')(await b.core.listPanels());
  assert.ok(seen);
  assert.deepEqual([seen.group, seen.tags, seen.colour, seen.signedIn, seen.fleetFile], ['Acme', ['eu'], 'red', false, opened.id]);
  assert.equal(seen.address, shop.address);
});

test('a panel added by one appears for the other within seconds (timed, not asserted); a rename is one line of git diff', async () => {
  const [fileA] = await a.core.listFleetFiles();
  const blog = await a.core.addPanel({ address: 'blog.acme.example', name: 'Blog' });
  const started = performance.now();
  await a.core.shareInFleetFile([blog.id], fileA!.id);
  await until(b, (panels) => Boolean(named('Blog')(panels)), 'Blog at B');
  console.log(`# a panel added by A seen by B after ${Math.round(performance.now() - started)} ms`);
  git('add', '.');
  git('commit', '-qm', 'blog');

  // Notes are the team's: written here, read there.
  await a.core.updatePanel(blog.id, { notes: 'On call: Ana' });
  await until(b, (panels) => named('Blog')(panels)?.notes === 'On call: Ana', 'the notes at B');
  git('commit', '-qam', 'notes');
  await a.core.updatePanel(blog.id, { name: 'Blog EU' });
  await until(b, (panels) => Boolean(named('Blog EU')(panels)), 'the rename at B');
  const diff = git('diff', '--unified=0', '--no-color')
    .split('\n')
    .filter((line) => /^[-+](?![-+])/.test(line));
  assert.deepEqual(diff, ['-      "name": "Blog",', '+      "name": "Blog EU",']);
  git('commit', '-qam', 'rename');
});

test("neither operator's token, password or email is in the file, in any encoding", async () => {
  const shop = named('Shop')(await b.core.listPanels())!;
  await b.core.logIn(shop.id, credentials);
  const text = readFileSync(fleetPath, 'utf8');
  const secrets = [...reference.issuedTokens(), DEMO_USER.password, DEMO_USER.email];
  assert.ok(secrets.length >= 4, 'both logged in');
  for (const secret of secrets) {
    for (const form of [
      secret,
      Buffer.from(secret).toString('base64'),
      Buffer.from(secret).toString('hex'),
      encodeURIComponent(secret),
      JSON.stringify(secret).slice(1, -1),
    ])
      assert.ok(!text.includes(form), `a secret in the file (${form.slice(0, 6)}…)`);
  }
  const stored = readFileSync(join(dataB.path, 'fleet-files.json'), 'utf8');
  for (const secret of secrets) assert.ok(!stored.includes(secret), 'nor in the base kept here');
});

test('edits of different panels made at once both survive; one field changed apart on both sides is a conflict, the file keeping its value', async () => {
  const shopA = named('Shop')(await a.core.listPanels())!;
  const blogB = named('Blog EU')(await b.core.listPanels())!;
  await Promise.all([a.core.updatePanel(shopA.id, { group: 'Acme EU' }), b.core.updatePanel(blogB.id, { tags: ['blog'] })]);
  const both = (panels: Panel[]) => named('Shop')(panels)?.group === 'Acme EU' && named('Blog EU')(panels)?.tags.join() === 'blog';
  await until(a, both, 'both edits at A');
  await until(b, both, 'both edits at B');
  const file = JSON.parse(readFileSync(fleetPath, 'utf8')) as { panels: { name: string; group: string | null; tags: string[] }[] };
  assert.deepEqual(
    file.panels.map((panel) => [panel.name, panel.group, panel.tags.join()]),
    [
      ['Blog EU', null, 'blog'],
      ['Shop', 'Acme EU', 'eu'],
    ].sort(() => 0),
  );

  // The same field at once, apart: whichever writes second finds the other's value there, and keeps its own here as a conflict.
  const shopB = named('Shop')(await b.core.listPanels())!;
  await Promise.all([a.core.updatePanel(shopA.id, { name: 'Shop (Ana)' }), b.core.updatePanel(shopB.id, { name: 'Shop (Ben)' })]);
  const conflicts = async () => {
    const found = [...(await a.core.listFleetFiles()), ...(await b.core.listFleetFiles())].flatMap((one) => one.conflicts);
    return found.length > 0 ? found : undefined;
  };
  // Whichever side wrote second holds the conflict; both sides' events are heard.
  const [conflict] = await Promise.race([eventually(a, conflicts, 'a conflict at A'), eventually(b, conflicts, 'a conflict at B')]);
  assert.equal(conflict?.field, 'name');
  const inFile = (JSON.parse(readFileSync(fleetPath, 'utf8')) as { panels: { name: string }[] }).panels.map((panel) => panel.name);
  assert.ok(inFile.includes('Shop (Ana)') !== inFile.includes('Shop (Ben)'), `one of them in the file: ${inFile.join(', ')}`);
  assert.deepEqual([conflict?.here, conflict?.there].sort(), ['"Shop (Ana)"', '"Shop (Ben)"']);

  // The side holding it sees the preview (its value, the file's) and keeps its own: written back, and the other follows.
  const holder = (await a.core.listFleetFiles())[0]!.conflicts.length > 0 ? a : b;
  const other = holder === a ? b : a;
  const [held] = await holder.core.listFleetFiles();
  const mine = JSON.parse(held!.conflicts[0]!.here) as string;
  const settled = await holder.core.resolveFleetConflict(held!.id, { address: conflict!.address, field: 'name', keep: 'here' });
  assert.deepEqual(settled.conflicts, []);
  await until(other, (panels) => Boolean(named(mine)(panels)), 'the kept name at the other side');
  assert.ok(readFileSync(fleetPath, 'utf8').includes(`"name": "${mine}"`));
  await rejectsWith(
    holder.core.resolveFleetConflict(held!.id, { address: conflict!.address, field: 'name', keep: 'file' }),
    'NOT_FOUND',
    /settled already/,
  );

  // Apart again, and this time the file's value is taken here: nothing is written back, both agree.
  const [shopHolder, shopOther] = [named(mine)(await holder.core.listPanels())!, named(mine)(await other.core.listPanels())!];
  await Promise.all([holder.core.updatePanel(shopHolder.id, { notes: 'mine' }), other.core.updatePanel(shopOther.id, { notes: 'theirs' })]);
  const noteConflict = async (who: typeof a) => {
    const [file] = await who.core.listFleetFiles();
    return file?.conflicts.find((one) => one.field === 'notes') ? { who, file } : undefined;
  };
  const found = await Promise.race([
    eventually(a, () => noteConflict(a), 'notes apart at A'),
    eventually(b, () => noteConflict(b), 'notes apart at B'),
  ]);
  const fileValue = JSON.parse(found.file.conflicts.find((one) => one.field === 'notes')!.there) as string;
  await found.who.core.resolveFleetConflict(found.file.id, { address: conflict!.address, field: 'notes', keep: 'file' });
  for (const who of [a, b]) await until(who, (panels) => named(mine)(panels)?.notes === fileValue, 'the file notes on both sides');
  assert.deepEqual((await found.who.core.listFleetFiles())[0]!.conflicts, []);
});

test('a panel removed by one is removed for the other, said once; its sign-in forgotten there', async () => {
  const blogA = named('Blog EU')(await a.core.listPanels())!;
  await a.core.removePanel(blogA.id);
  await until(b, (panels) => !named('Blog EU')(panels), 'Blog gone at B');
  const [fileB] = await b.core.listFleetFiles();
  assert.deepEqual(fileB?.removed, ['Blog EU']);
});

test("the file's pin is taken for a panel not signed in; a signed-in panel it pins elsewhere is asked about, its pin here unchanged", async () => {
  const pin = Array.from({ length: 32 }, (_, index) => (index * 7).toString(16).toUpperCase().padStart(2, '0')).join(':');
  const document = JSON.parse(readFileSync(fleetPath, 'utf8')) as { panels: Record<string, unknown>[] };
  const shop = document.panels.find((panel) => String(panel.name).startsWith('Shop'))!;
  shop.certificateSha256 = pin;
  document.panels.push({ ...shop, address: 'edge.acme.example', name: 'Edge' });
  writeFileSync(fleetPath, `${JSON.stringify(document, null, 2)}\n`);
  const edge = named('Edge')(await until(b, (panels) => Boolean(named('Edge')(panels)), 'Edge at B'))!;
  assert.equal(edge.trustedCertificate?.sha256, pin, 'pinned: not signed in, nothing at stake yet');
  const asked = await eventually(
    b,
    async () => {
      const [file] = await b.core.listFleetFiles();
      return file && file.trust.length > 0 ? file.trust : undefined;
    },
    'the trust question at B',
  );
  assert.deepEqual(
    asked.map((one) => [one.panelName.startsWith('Shop'), one.fileSha256]),
    [[true, pin]],
  );
  const shopB = (await b.core.listPanels()).find((panel) => panel.name.startsWith('Shop'))!;
  assert.equal(shopB.trustedCertificate, null, 'the signed-in panel keeps its trust until the operator trusts another');
  assert.equal(shopB.signedIn, true);

  // Compared and trusted from Preferences: the pin is the file's from now on, and not asked about again.
  const [fileB] = await b.core.listFleetFiles();
  const trusted = await b.core.trustFleetFilePin(fileB!.id, asked[0]!.address);
  assert.deepEqual(trusted.trust, []);
  assert.equal(named(shopB.name)(await b.core.listPanels())!.trustedCertificate?.sha256, pin);
  await rejectsWith(b.core.trustFleetFilePin(fileB!.id, asked[0]!.address), 'CHANGED_BEFORE_SENDING');
});

test('a damaged file is refused, its panels kept, and never written over, even after a change here', async () => {
  const before = readFileSync(fleetPath, 'utf8');
  const damaged = `${before.slice(0, before.length / 2)}`;
  writeFileSync(fleetPath, damaged);
  const problemAt = (who: typeof a) =>
    eventually(
      who,
      async () => {
        const [file] = await who.core.listFleetFiles();
        return file?.problem ?? undefined;
      },
      'the problem seen',
    );
  assert.match(await problemAt(b), /is not valid JSON.*does not write over it/);
  const shopB = (await b.core.listPanels()).find((panel) => panel.fleetFile !== null)!;
  await b.core.updatePanel(shopB.id, { colour: 'green' });
  await problemAt(a);
  assert.equal(readFileSync(fleetPath, 'utf8'), damaged, 'not written over');
  assert.ok(
    (await a.core.listPanels()).some((panel) => panel.fleetFile !== null),
    'its panels kept',
  );
  // Put back (git checkout): followed again, the change made meanwhile merged in.
  git('checkout', '--', 'acme.paneldeck-fleet.json');
  await until(a, (panels) => panels.some((panel) => panel.colour === 'green'), "B's colour reaches A once the file is sound");
});

test('read-only in the file is read-only for both: no write is planned for it from either', async () => {
  const shopA = (await a.core.listPanels()).find((panel) => panel.fleetFile !== null)!;
  await a.core.updatePanel(shopA.id, { readOnly: true });
  const shopB = (await until(b, (panels) => panels.some((panel) => panel.fleetFile !== null && panel.readOnly), 'read-only at B')).find(
    (panel) => panel.readOnly,
  )!;
  for (const [who, id] of [
    [a, shopA.id],
    [b, shopB.id],
  ] as const)
    await rejectsWith(who.core.runServiceAction(id, { projectName: 'shop', serviceName: 'web', action: 'restart' }), 'READ_ONLY');
  assert.match(readFileSync(fleetPath, 'utf8'), /"readOnly": true/);
});
