import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { openJsonFiles } from '../../electron/core/storage/document-store.ts';
import { PanelError } from '../../shared/contract/errors.ts';
import { IMPORT_MAX_BYTES, type ImportPreview, type ImportResult } from '../../shared/transfer.ts';
import { rejectsWith, suiteReferencePanel, tempDir, testEncryption } from '../support/helpers.ts';
import { diskFullError } from '../support/model/stores.ts';
import { settingsOf } from '../support/panel-fixture.ts';
import { DEMO_USER } from '../support/reference-panel/server.ts';

/** An import's counts, its added ids (checked where it matters) left out. */
const countsOf = ({ addedIds, ...counts }: ImportResult) => {
  assert.equal(addedIds.length, counts.added);
  return counts;
};

/** Import: a preview of every entry first, then one write; hostile files refused with a reason. */

const reference = suiteReferencePanel();
let dir: Awaited<ReturnType<typeof tempDir>>;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

let folders = 0;
/** A core on a folder of its own; `file` is what the open dialog answers, `failPanelWrites` fills the disk for panels.json. */
function openCore(dialogs: { file?: string | null; exportTo?: string } = {}, disk = { failPanelWrites: false }) {
  const dataDir = join(dir.path, `data-${++folders}`);
  const files = openJsonFiles(dataDir);
  return createCore({
    dataDir,
    encryption: testEncryption(),
    chooseImportFile: async () => dialogs.file ?? null,
    chooseExportFile: async () => dialogs.exportTo ?? null,
    openStore: (name, options) => {
      const store = files(name, options);
      return {
        ...store,
        save: async (change, whole) => {
          if (name === 'panels' && disk.failPanelWrites) throw diskFullError(store.path);
          await store.save(change, whole);
        },
      };
    },
  });
}

function fileWith(name: string, content: string | Uint8Array): string {
  const folder = join(dir.path, 'files');
  mkdirSync(folder, { recursive: true });
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

const paste = (app: Core, text: string) => app.previewImport({ from: 'text', text }) as Promise<ImportPreview>;

test('round trip: export, remove every panel, import the file: the same panels, signed out, and no secret in the file', async () => {
  const exported = join(dir.path, 'round-trip.json');
  const app = openCore({ exportTo: exported, file: exported });
  const production = await app.addPanel({
    address: reference().url,
    name: 'Production',
    group: 'Acme',
    tags: ['eu', 'db'],
    colour: 'red',
    favourite: true,
  });
  await app.logIn(production.id, { email: DEMO_USER.email, password: DEMO_USER.password });
  await app.getSession(production.id);
  await app.updatePanel(production.id, { loginPath: '/auth/login', tokenField: 'data.token' });
  await app.addPanel({ address: 'staging.example.com:8443', name: 'Staging', tags: ['eu'] });
  const legacy = await app.addPanel({ address: 'legacy.example.com', name: 'Legacy' });
  await app.updatePanel(legacy.id, { generation: 'trpc' });
  await app.addPanel({ address: 'http://10.0.0.5:3000', allowPlainHttp: true, name: 'Fresh install' });
  const before = await app.listPanels();

  await app.exportPanels();
  const text = readFileSync(exported, 'utf8');
  for (const secret of [DEMO_USER.password, DEMO_USER.email, reference().issuedTokens()[0]!, 'lastCheck', 'lastEmail'])
    assert.ok(!text.includes(secret), `the export holds ${secret.slice(0, 12)}`);

  await app.removePanels(before.map((entry) => entry.id));
  assert.deepEqual(await app.listPanels(), []);
  const preview = (await app.previewImport({ from: 'file' }))!;
  assert.equal(preview.format, 'json');
  assert.equal(preview.source, 'round-trip.json');
  assert.deepEqual(preview.counts, { new: 4, duplicate: 0, same: 0, invalid: 0 });
  assert.deepEqual(await app.listPanels(), [], 'a preview writes nothing');
  const applied = await app.applyImport(preview.id, { duplicates: 'skip' });
  assert.deepEqual(countsOf(applied), { added: 4, updated: 0, unchanged: 0, invalid: 0 });

  const after = await app.listPanels();
  // The panels added, by id: the window offers to log in to them next.
  assert.deepEqual([...applied.addedIds].sort(), after.map((entry) => entry.id).sort());
  assert.deepEqual(settingsOf(after), settingsOf(before));
  assert.ok(after.every((entry) => !entry.signedIn && entry.lastEmail === null && entry.lastCheck === null));
  assert.ok(
    after.every((entry) => !before.some((old) => old.id === entry.id)),
    'imported panels get new ids',
  );
});

test('a second import of the same file: everything is already there with the same settings', async () => {
  const exported = join(dir.path, 'again.json');
  const app = openCore({ exportTo: exported, file: exported });
  await app.addPanel({ address: 'one.example.com', group: 'G' });
  await app.exportPanels();
  const preview = (await app.previewImport({ from: 'file' }))!;
  assert.deepEqual(preview.counts, { new: 0, duplicate: 0, same: 1, invalid: 0 });
  assert.match(preview.rows[0]!.message!, /Already in your list as "one\.example\.com"\. Nothing to change\./);
});

test('an export of format 1 still imports: the generation under its old name and value', async () => {
  // What Paneldeck wrote before format 2, field for field (a 2.33+ panel and a tRPC one).
  const oldExport = {
    format: 'paneldeck.panels',
    version: 1,
    exportedAt: '2026-11-25T10:00:00.000Z',
    panels: [
      { name: 'New', address: 'new.example.com', allowPlainHttp: false, apiStyle: 'plain', loginPath: '/login' }, // retired-word: format 1
      { name: 'Old', address: 'old.example.com', allowPlainHttp: false, apiStyle: 'trpc', loginPath: '/trpc/auth.login' }, // retired-word
    ],
  };
  const app = openCore({ file: fileWith('format-1.json', JSON.stringify(oldExport)) });
  const preview = (await app.previewImport({ from: 'file' }))!;
  assert.deepEqual(preview.counts, { new: 2, duplicate: 0, same: 0, invalid: 0 });
  assert.deepEqual(countsOf(await app.applyImport(preview.id, { duplicates: 'skip' })), { added: 2, updated: 0, unchanged: 0, invalid: 0 });
  const panels = await app.listPanels();
  assert.deepEqual(
    panels.map((panel) => [panel.name, panel.generation, panel.loginPath, panel.sessionPath]),
    [
      ['New', 'public', '/login', '/getSession'],
      ['Old', 'trpc', '/trpc/auth.login', '/trpc/auth.getSession'],
    ],
  );
});

describe('previews of JSON, CSV and text', () => {
  test('JSON: line numbers, the messages Add panel gives, duplicates with what would change, repeats', async () => {
    const app = openCore();
    await app.addPanel({ address: 'known.example.com', name: 'Known', group: 'Old' });
    const document = {
      format: 'paneldeck.panels',
      version: 1,
      panels: [
        { name: 'New one', address: 'new.example.com', tags: ['a'] },
        { name: 'Known renamed', address: 'https://KNOWN.example.com/api/', group: 'New' },
        { address: 'http://plain.example.com' },
        { address: 'new.example.com' },
        { name: '', address: '' },
        'just-a-string.example.com',
        { address: 'ok.example.com', colour: 'pink' },
      ],
    };
    const preview = await paste(app, JSON.stringify(document, null, 2));
    assert.equal(preview.format, 'json');
    const rows = preview.rows;
    assert.deepEqual(
      rows.map((row) => row.line),
      [5, 12, 17, 20, 23, 27, 28],
    );
    assert.deepEqual(
      rows.map((row) => row.status),
      ['new', 'duplicate', 'invalid', 'invalid', 'invalid', 'new', 'invalid'],
    );
    assert.deepEqual(rows[1]!.changes, ['name', 'group']);
    assert.equal(rows[1]!.message, 'Already in your list as "Known".');
    // The very message Add panel gives for the same address.
    const addPanelSays = await rejectsWith(app.addPanel({ address: 'http://plain.example.com' }), 'INVALID_INPUT');
    assert.equal(rows[2]!.message, addPanelSays.message);
    assert.equal(rows[3]!.message, 'The same address as line 5; only line 5 is imported.');
    assert.equal(rows[4]!.message, (await rejectsWith(app.addPanel({ address: '' }), 'INVALID_INPUT')).message);
    assert.equal(
      rows[6]!.message,
      (await rejectsWith(app.addPanel({ address: 'ok.example.com', colour: 'pink' as 'red' }), 'INVALID_INPUT')).message,
    );
    assert.deepEqual(preview.counts, { new: 2, duplicate: 1, same: 0, invalid: 4 });
  });

  test('CSV: a header in any order, quoted cells, tags split on commas or semicolons, an ignored column named', async () => {
    const app = openCore();
    const csv = [
      'Address,Name,Tags,Notes,Group',
      'a.example.com,"Alpha, the first","eu; db",call Bob,Acme',
      '"b.example.com","Beta ""two""",,,',
      '',
      '# a comment',
      'not an address!,Broken,,,',
      '"c.example.com","Multi',
      'line",x,,',
    ].join('\r\n');
    const preview = await paste(app, csv);
    assert.equal(preview.format, 'csv');
    assert.deepEqual(preview.notes, ['Ignored column: "Notes".']);
    assert.deepEqual(
      preview.rows.map((row) => [row.line, row.status, row.name]),
      [
        [2, 'new', 'Alpha, the first'],
        [3, 'new', 'Beta "two"'],
        [6, 'invalid', 'Broken'],
        // A quoted cell may span lines; the row is named by the line it starts on.
        [7, 'invalid', 'Multi\r\nline'],
      ],
    );
    assert.equal(preview.rows[2]!.address, 'not an address!');
    assert.equal(preview.rows[3]!.message, 'Name cannot contain control characters.');
    await app.applyImport(preview.id, { duplicates: 'skip' });
    const alpha = (await app.listPanels()).find((panel) => panel.address === 'a.example.com')!;
    assert.deepEqual([alpha.name, alpha.tags, alpha.group], ['Alpha, the first', ['eu', 'db'], 'Acme']);
  });

  test('CSV without a header: name,address,group,tags; a row of one cell is an address; too many cells is an error', async () => {
    const app = openCore();
    const preview = await paste(app, 'Alpha,a.example.com,Acme,eu\nb.example.com\nC,c.example.com,,,,extra\n');
    assert.deepEqual(
      preview.rows.map((row) => [row.line, row.status, row.name]),
      [
        [1, 'new', 'Alpha'],
        [2, 'new', 'b.example.com'],
        [3, 'invalid', null],
      ],
    );
    assert.equal(preview.rows[2]!.message, 'This row has 6 columns; without a header row a CSV has name,address,group,tags.');
    const applied = await app.applyImport(preview.id, { duplicates: 'skip' });
    assert.deepEqual(countsOf(applied), { added: 2, updated: 0, unchanged: 0, invalid: 1 });
    const alpha = (await app.listPanels()).find((entry) => entry.name === 'Alpha')!;
    assert.deepEqual([alpha.group, alpha.tags], ['Acme', ['eu']]);
  });

  test('text: one address per line; blank lines, comments and an "address" heading skipped; IPv6 is not JSON', async () => {
    const app = openCore();
    const preview = await paste(
      app,
      'address\n\npanel-1.example.com\n  # staging below\nhttps://panel-2.example.com/api/\n[::1]:8443\nbad host name\n',
    );
    assert.equal(preview.format, 'text');
    assert.deepEqual(
      preview.rows.map((row) => [row.line, row.status, row.address]),
      [
        [3, 'new', 'panel-1.example.com'],
        [5, 'new', 'panel-2.example.com'],
        [6, 'new', '[::1]:8443'],
        [7, 'invalid', 'bad host name'],
      ],
    );
  });

  test('a list of addresses with one "name,https://host" line is a CSV: that line gives a name, the others are addresses', async () => {
    const app = openCore();
    const preview = await paste(app, 'panel-1.example.com\n# prod below\nAcme prod,https://acme.example.com\npanel-2.example.com\n');
    assert.equal(preview.format, 'csv');
    assert.deepEqual(
      preview.rows.map((row) => [row.line, row.status, row.name, row.address]),
      [
        [1, 'new', 'panel-1.example.com', 'panel-1.example.com'],
        [3, 'new', 'Acme prod', 'acme.example.com'],
        [4, 'new', 'panel-2.example.com', 'panel-2.example.com'],
      ],
    );
  });

  test('plain http: the allowPlainHttp column; a line that needs it offers it, and the lines chosen are imported with it', async () => {
    const app = openCore();
    const csv = [
      'name,address,allowPlainHttp',
      'Fresh,http://203.0.113.7:3000,',
      'Said so,http://203.0.113.8:3000,yes',
      'Refused,http://203.0.113.9:3000,no',
      'Secure,https://secure.example.com,',
      'Broken,http://bad host,',
    ].join('\n');
    const preview = await paste(app, csv);
    assert.deepEqual(
      preview.rows.map((row) => [row.line, row.status, row.plainHttp, row.ifPlainHttp?.status ?? null]),
      [
        [2, 'invalid', false, 'new'],
        [3, 'new', true, null],
        [4, 'invalid', false, 'new'],
        [5, 'new', false, null],
        [6, 'invalid', false, null],
      ],
    );
    assert.equal(preview.rows[0]!.ifPlainHttp?.plainHttp, true);
    const applied = await app.applyImport(preview.id, { duplicates: 'skip', plainHttpRows: [0] });
    assert.deepEqual(countsOf(applied), { added: 3, updated: 0, unchanged: 0, invalid: 2 });
    const panels = await app.listPanels();
    assert.deepEqual(panels.map((panel) => [panel.name, panel.allowPlainHttp, panel.address]).sort(), [
      ['Fresh', true, 'http://203.0.113.7:3000'],
      ['Said so', true, 'http://203.0.113.8:3000'],
      ['Secure', false, 'secure.example.com'],
    ]);
  });

  test('the preview shows the labels an entry gives: group, tags, colour, favourite', async () => {
    const app = openCore();
    const preview = await paste(
      app,
      'name,address,group,tags,colour,favourite\nA,a.example.com,Acme,"eu,db",red,yes\nB,b.example.com,,,,\n',
    );
    assert.deepEqual(
      preview.rows.map((row) => row.labels),
      [{ group: 'Acme', tags: ['eu', 'db'], colour: 'red', favourite: true }, {}],
    );
  });
});

describe('applying', () => {
  test('duplicates are skipped or updated; only the settings the entry gives change', async () => {
    const app = openCore();
    const known = await app.addPanel({ address: 'known.example.com', name: 'Known', group: 'Old', tags: ['keep'], colour: 'blue' });
    const text = 'name,address,group\nRenamed,known.example.com,New\nFresh,fresh.example.com,\n';
    const skipped = await app.applyImport((await paste(app, text)).id, { duplicates: 'skip' });
    assert.deepEqual(countsOf(skipped), { added: 1, updated: 0, unchanged: 1, invalid: 0 });
    assert.equal((await app.listPanels()).find((entry) => entry.id === known.id)!.name, 'Known');

    const updated = await app.applyImport((await paste(app, text)).id, { duplicates: 'update' });
    assert.deepEqual(countsOf(updated), { added: 0, updated: 1, unchanged: 1, invalid: 0 });
    assert.deepEqual(updated.addedIds, [], 'an update adds no panel to log in to');
    const after = (await app.listPanels()).find((entry) => entry.id === known.id)!;
    assert.deepEqual([after.name, after.group, after.tags, after.colour], ['Renamed', 'New', ['keep'], 'blue']);
  });

  test('an update keeps the sign-in: the address, and so the token, did not change', async () => {
    const app = openCore();
    const known = await app.addPanel({ address: reference().url, name: 'Known' });
    await app.logIn(known.id, { email: DEMO_USER.email, password: DEMO_USER.password });
    await app.applyImport((await paste(app, `Renamed,${reference().url}\n`)).id, { duplicates: 'update' });
    const after = (await app.listPanels())[0]!;
    assert.deepEqual([after.name, after.signedIn], ['Renamed', true]);
    assert.equal((await app.getSession(known.id)).panelId, known.id, 'the token still reads the session');
  });

  test('one write: when it fails nothing is added, the message says why, and the same preview can be applied again', async () => {
    const disk = { failPanelWrites: false };
    const app = openCore({}, disk);
    const preview = await paste(app, Array.from({ length: 50 }, (_, index) => `panel-${index}.example.com`).join('\n'));
    disk.failPanelWrites = true;
    const error = await rejectsWith(app.applyImport(preview.id, { duplicates: 'skip' }), 'STORAGE', /no space left|disk/i);
    assert.ok(!error.message.includes('undefined'));
    assert.deepEqual(await app.listPanels(), []);
    disk.failPanelWrites = false;
    assert.equal((await app.applyImport(preview.id, { duplicates: 'skip' })).added, 50);
    assert.equal((await app.listPanels()).length, 50);
  });

  test('only the newest preview applies, once; one planned again sees panels added since', async () => {
    const app = openCore();
    const first = await paste(app, 'a.example.com\nb.example.com');
    const second = await paste(app, 'b.example.com\nc.example.com');
    await rejectsWith(app.applyImport(first.id, { duplicates: 'skip' }), 'INVALID_INPUT', /no longer current/);
    await app.addPanel({ address: 'c.example.com' });
    assert.deepEqual(countsOf(await app.applyImport(second.id, { duplicates: 'skip' })), {
      added: 1,
      updated: 0,
      unchanged: 1,
      invalid: 0,
    });
    await rejectsWith(app.applyImport(second.id, { duplicates: 'skip' }), 'INVALID_INPUT', /no longer current/);
    assert.deepEqual((await app.listPanels()).map((entry) => entry.address).sort(), ['b.example.com', 'c.example.com']);
  });
});

describe('files that are not what they claim', () => {
  const refused = async (content: string | Uint8Array, pattern: RegExp, name = 'panels.json') => {
    const app = openCore({ file: fileWith(name, content) });
    const error = await rejectsWith(app.previewImport({ from: 'file' }), 'INVALID_INPUT', pattern);
    assert.deepEqual(await app.listPanels(), []);
    return error;
  };

  test('a huge file is refused with its size, before it is read', async () => {
    const path = fileWith('huge.json', '');
    truncateSync(path, IMPORT_MAX_BYTES + 5 * 1024 * 1024);
    const app = openCore({ file: path });
    await rejectsWith(
      app.previewImport({ from: 'file' }),
      'INVALID_INPUT',
      /^huge\.json is 21\.0 MiB; Paneldeck imports files up to 16\.0 MiB\./,
    );
  });

  test('deeply nested JSON is refused without parsing it', async () => {
    await refused('['.repeat(500_000) + ']'.repeat(500_000), /nested more than 64 levels deep, so it is not a Paneldeck export/);
  });

  test('__proto__ and constructor keys are just keys: nothing is polluted, the entry is read by its own fields', async () => {
    const app = openCore();
    const text =
      '{"format":"paneldeck.panels","version":1,"__proto__":{"polluted":true},"panels":[{"__proto__":{"address":"evil.example.com"},"constructor":{"name":"x"},"address":"ok.example.com"},{"__proto__":{"address":"evil.example.com"}}]}';
    const preview = await paste(app, text);
    assert.deepEqual(
      preview.rows.map((row) => [row.status, row.address]),
      [
        ['new', 'ok.example.com'],
        ['invalid', ''],
      ],
    );
    assert.equal(preview.rows[1]!.message, 'Enter the panel address, for example panel.example.com.');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(({} as Record<string, unknown>).address, undefined);
  });

  test('not UTF-8, UTF-16, binary, empty, a newer format, JSON of something else, a folder', async () => {
    await refused(
      Uint8Array.from([0x61, 0x2e, 0x63, 0x6f, 0x6d, 0x0a, 0xff, 0xfe, 0xfd]),
      /^list\.txt is not UTF-8 text\. Save it as UTF-8/,
      'list.txt',
    );
    await refused(Buffer.from('\ufeffa.example.com', 'utf16le'), /is UTF-16 text/, 'list.txt');
    await refused(
      Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]),
      /^book\.xlsx is not a text file \(it holds binary data\)/,
      'book.xlsx',
    );
    await refused('  \n\n', /is empty/);
    await refused(
      '{"format":"paneldeck.panels","version":7,"panels":[]}',
      /exported by a newer Paneldeck \(format version 7; this one reads up to 2\)/,
    );
    await refused('{"servers":[]}', /is JSON but not a Paneldeck export/);
    await refused('{"format":"paneldeck.panels","version":1,"panels":[', /is not valid JSON/);
    const app = openCore({ file: join(dir.path, 'files') });
    await rejectsWith(app.previewImport({ from: 'file' }), 'INVALID_INPUT', /^files is not a file\./);
  });

  test('a cancelled dialog previews nothing; pasted text too long is refused by the contract', async () => {
    const app = openCore({ file: null });
    assert.equal(await app.previewImport({ from: 'file' }), null);
    await rejectsWith(
      app.previewImport({ from: 'text', text: 'a'.repeat(IMPORT_MAX_BYTES + 1) }),
      'INVALID_INPUT',
      /pasted text is too long/,
    );
    await rejectsWith(app.previewImport({ from: 'text', text: 'a.example.com', extra: 1 } as never), 'INVALID_INPUT');
  });

  test('every failure is a PanelError with a message for the operator, never a crash', async () => {
    const app = openCore();
    for (const text of [
      '[',
      '{',
      '[{"a":1}]',
      '["x y"]',
      '[null]',
      '{"format":"paneldeck.panels","version":1,"panels":{}}',
      ',,,\n,,,',
      '"',
      '\u0000',
    ]) {
      try {
        const preview = await paste(app, text);
        assert.ok(preview.rows.every((row) => row.status === 'invalid' && row.message));
      } catch (error) {
        assert.ok(
          error instanceof PanelError && error.code === 'INVALID_INPUT' && error.message.length > 10,
          `${JSON.stringify(text)}: ${String(error)}`,
        );
      }
    }
  });
});
