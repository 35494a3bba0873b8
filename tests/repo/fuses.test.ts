import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterPack, fuseConfigFor, PACKAGED_FUSES, type AfterPackContext } from '../../scripts/after-pack.ts';
import { fuseProblems, runsAsNode, unpackedApps } from '../../scripts/check-packaged-app.ts';

/**
 * The after-pack hook against synthetic Electron binaries (no Electron binary can be downloaded
 * here): filler bytes around the fuse wire laid out as @electron/fuses reads it, i.e. its
 * sentinel string, a version byte, a length byte, then one byte per fuse ('0' off, '1' on).
 */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const { ENABLE: ON, DISABLE: OFF } = FuseState;

/** Electron's own defaults, in wire order (RunAsNode ... WasmTrapHandlers). */
const ELECTRON_DEFAULTS = [ON, OFF, ON, ON, OFF, OFF, OFF, ON, ON];

function syntheticBinary(wire: number[], version = 1): { bytes: Buffer; wireAt: number } {
  const before = randomBytes(64 * 1024);
  const header = Buffer.concat([Buffer.from(SENTINEL, 'ascii'), Buffer.from([version, wire.length])]);
  return { bytes: Buffer.concat([before, header, Buffer.from(wire), randomBytes(4096)]), wireAt: before.length + header.length };
}

let outDir: string;
before(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'paneldeck-fuses-'));
});
after(async () => {
  await rm(outDir, { recursive: true, force: true });
});

function context(platform: string, arch = 1): AfterPackContext {
  const appOutDir = join(outDir, `${platform}-${arch}`);
  return {
    appOutDir,
    electronPlatformName: platform,
    arch,
    packager: { appInfo: { productFilename: 'Paneldeck' }, executableName: 'paneldeck' },
  };
}

/** Where the flipped bytes live: the executable, or for macOS the framework inside the .app. */
const fuseFiles: Record<string, string> = {
  linux: 'paneldeck',
  win32: 'Paneldeck.exe',
  darwin: 'Paneldeck.app/Contents/Frameworks/Electron Framework.framework/Electron Framework',
};

async function place(ctx: AfterPackContext, bytes: Buffer): Promise<string> {
  const file = join(ctx.appOutDir, fuseFiles[ctx.electronPlatformName] ?? 'unknown');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, bytes);
  return file;
}

for (const platform of ['linux', 'win32', 'darwin']) {
  test(`${platform}: the packaged binary's fuses are flipped as the issue asks, and nothing else in it changes`, async () => {
    const ctx = context(platform);
    const { bytes, wireAt } = syntheticBinary(ELECTRON_DEFAULTS);
    const file = await place(ctx, bytes);

    const said: string[] = [];
    await afterPack(ctx, (line) => said.push(line));
    assert.match(said.join('\n'), /fuses set in/);

    // Read back through the library, from the path the hook chose (for macOS, the .app).
    const wire = await getCurrentFuseWire(platform === 'darwin' ? join(ctx.appOutDir, 'Paneldeck.app') : file);
    assert.equal(wire.version, '1');
    assert.equal(wire[FuseV1Options.RunAsNode], OFF, 'ELECTRON_RUN_AS_NODE ignored');
    assert.equal(wire[FuseV1Options.EnableCookieEncryption], ON, 'cookies encrypted');
    assert.equal(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable], OFF, 'NODE_OPTIONS ignored');
    assert.equal(wire[FuseV1Options.EnableNodeCliInspectArguments], OFF, '--inspect refused');
    assert.equal(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation], ON, 'asar integrity checked');
    assert.equal(wire[FuseV1Options.OnlyLoadAppFromAsar], ON, 'app only from asar');
    assert.equal(wire[FuseV1Options.GrantFileProtocolExtraPrivileges], OFF, 'file:// without extra privileges');
    assert.equal(wire[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot], OFF, "Electron's default kept");
    assert.equal(wire[FuseV1Options.WasmTrapHandlers], ON, "Electron's default kept");

    const flipped = await readFile(file);
    assert.equal(flipped.length, bytes.length);
    assert.ok(flipped.subarray(0, wireAt).equals(bytes.subarray(0, wireAt)), 'bytes before the wire untouched');
    const end = wireAt + ELECTRON_DEFAULTS.length;
    assert.ok(flipped.subarray(end).equals(bytes.subarray(end)), 'bytes after the wire untouched');
  });
}

test('the exported fuse choice decides every fuse this @electron/fuses knows, strictly', () => {
  const known = Object.values(FuseV1Options).filter((value) => typeof value === 'number');
  for (const fuse of known) assert.equal(typeof PACKAGED_FUSES[fuse], 'boolean', `fuse ${FuseV1Options[fuse]} decided`);
  assert.equal(PACKAGED_FUSES.strictlyRequireAllFuses, true);
});

test('packaging stops on a binary whose fuses cannot be set as decided', async () => {
  const cases: [string, Buffer, RegExp][] = [
    ['no fuse wire (not Electron, or older than 12)', randomBytes(8192), /sentinel/],
    ['a fuse wire of another version', syntheticBinary(ELECTRON_DEFAULTS, 2).bytes, /version/],
    ['a fuse this list does not decide (a newer Electron)', syntheticBinary([...ELECTRON_DEFAULTS, ON]).bytes, /strictlyRequireAllFuses/],
  ];
  for (const [index, [what, bytes, message]] of cases.entries()) {
    const ctx = context('linux', 10 + index); // a folder of its own
    await place(ctx, bytes);
    await assert.rejects(
      afterPack(ctx, () => undefined),
      message,
      what,
    );
  }
});

test('macOS arm64 and universal builds get their ad-hoc signature redone; other builds are left alone', () => {
  assert.equal(fuseConfigFor(context('darwin', 3)).resetAdHocDarwinSignature, true);
  assert.equal(fuseConfigFor(context('darwin', 4)).resetAdHocDarwinSignature, true);
  assert.equal(fuseConfigFor(context('mas', 3)).resetAdHocDarwinSignature, true);
  assert.equal(fuseConfigFor(context('darwin', 1)).resetAdHocDarwinSignature, false);
  assert.equal(fuseConfigFor(context('linux', 3)).resetAdHocDarwinSignature, false);
});

test('an unknown platform or a Linux build without an executable name stops packaging', async () => {
  await assert.rejects(afterPack(context('freebsd')), /no known Electron binary/);
  const ctx = context('linux', 20);
  await assert.rejects(afterPack({ ...ctx, packager: { appInfo: ctx.packager.appInfo } }), /executableName/);
});

describe('the packaged-app check hosted CI runs after npm run dist (scripts/check-packaged-app.ts)', () => {
  test('it finds the unpacked app of each system in the release folder', async () => {
    const release = join(outDir, 'release');
    await mkdir(join(release, 'linux-unpacked'), { recursive: true });
    await mkdir(join(release, 'mac-arm64'), { recursive: true });
    assert.deepEqual(unpackedApps(release, 'linux'), [
      { fuses: join(release, 'linux-unpacked', 'paneldeck'), executable: join(release, 'linux-unpacked', 'paneldeck') },
    ]);
    assert.deepEqual(
      unpackedApps(release, 'darwin').map((app) => app.executable),
      [join(release, 'mac-arm64', 'Paneldeck.app', 'Contents', 'MacOS', 'Paneldeck')],
    );
    assert.deepEqual(unpackedApps(release, 'win32'), []);
    assert.deepEqual(unpackedApps(join(outDir, 'nothing-here'), 'linux'), []);
  });

  test('it names every fuse not as decided: all of them on an unflipped binary, none after after-pack', async () => {
    const ctx = context('linux', 30);
    const file = await place(ctx, syntheticBinary(ELECTRON_DEFAULTS).bytes);
    const before = await fuseProblems(file);
    assert.ok(before.includes('RunAsNode is on, should be off'), before.join('; '));
    assert.ok(before.includes('EnableNodeCliInspectArguments is on, should be off'));
    await afterPack(ctx, () => undefined);
    assert.deepEqual(await fuseProblems(file), []);
  });

  test('it tells an app that runs a script under ELECTRON_RUN_AS_NODE from one that does not', {
    skip: process.platform === 'win32' && 'uses shell scripts as stand-in apps',
  }, async () => {
    const obeys = join(outDir, 'obeys-run-as-node.sh');
    const refuses = join(outDir, 'refuses-run-as-node.sh');
    // The script's mark is the last argument's quoted text: a stand-in that evaluates it prints it.
    await writeFile(obeys, '#!/bin/sh\n[ "$ELECTRON_RUN_AS_NODE" = 1 ] && printf PANELDECK_RAN_AS_NODE\n', { mode: 0o755 });
    await writeFile(refuses, '#!/bin/sh\nprintf "starting the app instead"\nsleep 30\n', { mode: 0o755 });
    assert.equal(await runsAsNode(obeys), true);
    assert.equal(await runsAsNode(refuses, 300), false);
  });
});
