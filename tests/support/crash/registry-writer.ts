import { createCore, openJsonFiles, type FetchLike } from '../../../electron/core/index.ts';
import { DEMO_USER } from '../reference-panel/server.ts';
import { testEncryption } from '../helpers.ts';

/**
 * Child process of crash-during-save.test.ts: changes the panel list of `<dataDir>` in a loop
 * until it is killed. It prints `try <op> ...` before each change and `<op> <id> ...` only after
 * the change returned, so the parent knows what was committed and what may have been in flight
 * when the kill came. Writes to a pipe are synchronous on Linux, so a printed line is in the pipe
 * before the next change starts.
 *
 * With a panel address and a key it also logs in and out (`try login <id>` / `login <id>`,
 * `try logout <id>` / `logout <id>`), runs check passes in the background while it goes on
 * (`pass-start`, then `pass <id>=<checkedAt>=<ok|CODE> ...` when the pass answers), and flushes
 * the coalesced check history (`try flush` / `flushed`). Every panel's address is sent to that one
 * reference panel (a fetch that resolves every name to it), and the key is the parent's keyring.
 *
 * Usage: node --experimental-strip-types tests/support/crash/registry-writer.ts <dataDir> [maxMs] [panelUrl keyHex]
 * (with PANELDECK_TEST_JOURNAL set, see below, its stores journal their changes).
 */

const [dataDir, maxMsArgument, panelUrl, keyHex] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: registry-writer.ts <dataDir> [maxMs] [panelUrl keyHex]');
// A child whose parent died without killing it must not write forever.
const deadline = Date.now() + Number(maxMsArgument ?? 10_000);
const fleet = panelUrl !== undefined && keyHex !== undefined;
/** `PANELDECK_TEST_JOURNAL=<fromBytes>,<journalShare>`: the stores journal their changes from that size on (journal-crash.test.ts). */
const [fromBytes, journalShare] = (process.env.PANELDECK_TEST_JOURNAL ?? '').split(',').map(Number);
const journal =
  fromBytes !== undefined && journalShare !== undefined && Number.isFinite(fromBytes) && journalShare > 0
    ? { fromBytes, journalShare }
    : null;

/** Sends every request to the reference panel, whatever host the panel's address names. */
function toReferencePanel(url: string): FetchLike {
  const panel = new URL(url);
  return (target, init) => {
    const rewritten = new URL(target);
    rewritten.protocol = panel.protocol;
    rewritten.host = panel.host;
    return fetch(rewritten.href, init);
  };
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const core = createCore({
  dataDir,
  encryption: testEncryption(keyHex ? { key: Buffer.from(keyHex, 'hex') } : {}),
  ...(fleet ? { fetch: toReferencePanel(panelUrl) } : {}),
  ...(journal ? { openStore: openJsonFiles(dataDir, { journal }) } : {}),
});
const panels = await core.listPanels();
say(`ready ${panels.length}`);

let passRunning = false;
/** A check of every signed-in panel, left to run while the loop goes on making changes. */
function startPass(): void {
  passRunning = true;
  say('pass-start');
  void core.checkPanels().then((results) => {
    say(`pass ${results.map((result) => `${result.panelId}=${result.checkedAt}=${result.ok ? 'ok' : result.error.code}`).join(' ')}`);
    passRunning = false;
  });
}

const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

for (let step = 0; Date.now() < deadline; step++) {
  const current = await core.listPanels();
  const roll = Math.random();
  const target = pick(current);
  const tag = `${process.pid}-${step}`;
  const signedOut = pick(current.filter((panel) => !panel.signedIn));
  const signedIn = pick(current.filter((panel) => panel.signedIn));
  if (target && roll < 0.2) {
    const name = `Renamed ${tag}`;
    say(`try rename ${target.id} ${name}`);
    await core.updatePanel(target.id, { name });
    say(`rename ${target.id} ${name}`);
  } else if (target && roll < 0.26 && current.length > 5) {
    say(`try remove ${target.id}`);
    await core.removePanel(target.id);
    say(`remove ${target.id}`);
  } else if (fleet && signedOut && roll < 0.42) {
    say(`try login ${signedOut.id}`);
    await core.logIn(signedOut.id, { email: DEMO_USER.email, password: DEMO_USER.password });
    say(`login ${signedOut.id}`);
  } else if (fleet && signedIn && roll < 0.54) {
    say(`try logout ${signedIn.id}`);
    await core.logOut(signedIn.id);
    say(`logout ${signedIn.id}`);
  } else if (fleet && !passRunning && roll < 0.64) {
    startPass();
  } else if (fleet && roll < 0.69) {
    say('try flush');
    await core.flush();
    say('flushed');
  } else {
    const name = `Panel ${tag}`;
    say(`try add - ${name}`);
    const added = await core.addPanel({ address: `p${tag}.crash.example`, name });
    say(`add ${added.id} ${name}`);
  }
}
