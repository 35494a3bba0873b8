import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { Panel } from '../../shared/types.ts';
import type { WritePlan } from '../../shared/write-plan.ts';
import { randomBytes } from 'node:crypto';
import { readAllFiles, rejectsWith, tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, type DemoUser, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { coreWithEvents, onlyServices } from '../support/signed-in-core.ts';

/**
 * Several accounts on one panel, over real HTTP against a reference panel with two users: the
 * panel's own sign-in (an admin) stays the default for every read; another account (a
 * project-limited user) is added beside it, chosen for writes, and each write then goes with its
 * token, its plan and its activity entry naming it; it survives a restart; a refused token signs
 * out that account alone; removing it ends its session at the panel and writes go as the panel's
 * own sign-in again. No token is ever in an answer or in a file of the data folder in plain text.
 */

const LIMITED: DemoUser = { id: 'usr_2001', email: 'shop-team@paneldeck.test', password: 'shop-password', name: 'Shop team', role: 'user' };
const TOKEN_IN = (request: { headers: Record<string, string | string[] | undefined> }) =>
  String(request.headers.authorization ?? '').replace(/^Bearer /, '');

let dir: Awaited<ReturnType<typeof tempDir>>;
let core: Core;
let plans: WritePlan[];
let panel: ReferencePanel;
let panelId: string;
let adminToken: string;
const web = { projectName: 'shop', serviceName: 'web' };

const restartsAt = () => panel.requests.filter(({ method, path }) => method !== 'GET' && /restart/i.test(path));
const panelNow = async (): Promise<Panel> => (await core.listPanels()).find(({ id }) => id === panelId)!;

/** Every file of the data folder, as text. */
const folderText = async () => (await readAllFiles(dir.path)).map(({ content }) => content).join('\n');
/** One keyring for both runs of Paneldeck, as on one machine. */
const keyring = randomBytes(32);
const openCore = () => coreWithEvents(dir.path, { encryption: testEncryption({ key: keyring }) });

/** The token in plain text and in the encodings a leak would take. */
const encodings = (token: string) => [
  token,
  Buffer.from(token).toString('base64'),
  Buffer.from(token).toString('hex'),
  encodeURIComponent(token),
];

before(async () => {
  dir = await tempDir();
  ({ core, plans } = openCore());
  panel = await startReferencePanel({ style: 'public', users: [DEMO_USER, LIMITED] });
  onlyServices(panel, { projectName: 'shop', name: 'web', type: 'app' });
  ({ id: panelId } = await core.addPanel({ address: panel.url, name: 'Shop' }));
  await core.logIn(panelId, { email: DEMO_USER.email, password: DEMO_USER.password });
  adminToken = panel.issuedTokens()[0]!;
  panel.requests.splice(0);
});
after(async () => {
  core.stopAllLogFollows();
  await panel.close();
  await dir.cleanup();
});

test('another account is signed in beside the panel own one, never shown, and reads still go as the panel own', async () => {
  const added = await core.addPanelAccount(panelId, { kind: 'password', email: LIMITED.email, password: LIMITED.password });
  assert.equal(added.accounts.length, 1);
  const [account] = added.accounts;
  assert.equal(account!.email, LIMITED.email);
  assert.equal(account!.kind, 'session');
  assert.notEqual(account!.tokenStorage, null);
  assert.equal(added.writeAccount, null, 'adding an account does not change whom writes go as');
  const limitedToken = panel.issuedTokens().find((token) => token !== adminToken)!;
  assert.ok(limitedToken, 'the panel issued a session to the other account');
  for (const shown of [JSON.stringify(added), JSON.stringify(await core.listPanels())])
    for (const token of [adminToken, limitedToken]) assert.ok(!shown.includes(token), 'no token in what the window is answered');

  panel.requests.splice(0);
  await core.getSession(panelId);
  assert.ok(panel.requests.length > 0);
  assert.ok(
    panel.requests.every((request) => TOKEN_IN(request) === adminToken),
    'reads go as the panel own sign-in',
  );
});

test('writes go as the account chosen for writes: its token, named in the plan and in the activity log', async () => {
  const limited = (await panelNow()).accounts[0]!;
  // Before the choice: as the panel's own sign-in.
  await core.runServiceAction(panelId, { ...web, action: 'restart' });
  assert.equal(plans.at(-1)!.panels[0]!.account, DEMO_USER.email);
  assert.equal(TOKEN_IN(restartsAt().at(-1)!), adminToken);

  const chosen = await core.chooseWriteAccount(panelId, limited.id);
  assert.equal(chosen.writeAccount, limited.id);
  panel.requests.splice(0);
  await core.runServiceAction(panelId, { ...web, action: 'restart' });
  assert.equal(plans.at(-1)!.panels[0]!.account, LIMITED.email, 'the plan names the account it will use');
  const restart = restartsAt();
  assert.equal(restart.length, 1);
  assert.notEqual(TOKEN_IN(restart[0]!), adminToken, 'the write went with the chosen account token');
  assert.ok(panel.acceptsToken(TOKEN_IN(restart[0]!)));
  // The type read before the plan went as the panel's own sign-in.
  assert.ok(panel.requests.filter((request) => request !== restart[0]).every((request) => TOKEN_IN(request) === adminToken));
  const { entries } = await core.listActivity({ panelId, limit: 5 });
  assert.equal(entries[0]!.what.action, 'restart');
  assert.equal(entries[0]!.account, LIMITED.email, 'the activity log records the account');
});

test('the accounts and the choice survive a restart of Paneldeck; no token is in the data folder in plain text', async () => {
  const limitedToken = panel.issuedTokens().find((token) => token !== adminToken)!;
  const text = await folderText();
  for (const token of [adminToken, limitedToken]) for (const form of encodings(token)) assert.ok(!text.includes(form));
  assert.ok(text.includes(LIMITED.email), 'the account itself (its email) is kept');

  ({ core, plans } = openCore());
  const again = await panelNow();
  assert.equal(again.accounts.length, 1);
  assert.notEqual(again.accounts[0]!.tokenStorage, null);
  assert.equal(again.writeAccount, again.accounts[0]!.id);
  panel.requests.splice(0);
  await core.runServiceAction(panelId, { ...web, action: 'restart' });
  assert.equal(TOKEN_IN(restartsAt()[0]!), limitedToken);
});

test('a refused token signs that account out alone; writes are then refused, naming it, and never go as another account', async () => {
  const apiToken = panel.createApiToken(LIMITED);
  const withToken = await core.addPanelAccount(panelId, { kind: 'apiToken', token: ` ${apiToken}\n` });
  const tokenAccount = withToken.accounts.find(({ kind }) => kind === 'api-token')!;
  assert.ok(tokenAccount);
  await core.chooseWriteAccount(panelId, tokenAccount.id);
  panel.requests.splice(0);
  await core.runServiceAction(panelId, { ...web, action: 'restart' });
  assert.equal(plans.at(-1)!.panels[0]!.account, 'an API token');
  assert.equal(TOKEN_IN(restartsAt()[0]!), apiToken);

  panel.revokeApiToken(LIMITED);
  await rejectsWith(core.runServiceAction(panelId, { ...web, action: 'restart' }), 'UNAUTHORIZED');
  const after401 = await panelNow();
  assert.equal(after401.signedIn, true, 'the panel own sign-in goes on');
  assert.equal(after401.accounts.find(({ id }) => id === tokenAccount.id)!.tokenStorage, null, 'that account is signed out');
  assert.equal(after401.writeAccount, tokenAccount.id, 'writes still go as it: never quietly as another account');
  panel.requests.splice(0);
  const refused = await rejectsWith(core.runServiceAction(panelId, { ...web, action: 'restart' }), 'NOT_SIGNED_IN');
  assert.match(refused.message, /writes go as an API token, whose sign-in ended/);
  assert.deepEqual(restartsAt(), [], 'nothing was sent');
  await rejectsWith(core.chooseWriteAccount(panelId, tokenAccount.id), 'NOT_SIGNED_IN');
});

test('removing an account ends its session at the panel; writes go as the panel own sign-in again', async () => {
  const before = await panelNow();
  const limited = before.accounts.find(({ kind }) => kind === 'session')!;
  const limitedToken = panel.issuedTokens().find((token) => token !== adminToken)!;
  await core.chooseWriteAccount(panelId, limited.id);
  const removed = await core.removePanelAccount(panelId, limited.id);
  assert.deepEqual(
    removed.accounts.map(({ id }) => id),
    before.accounts.filter(({ id }) => id !== limited.id).map(({ id }) => id),
  );
  assert.equal(removed.writeAccount, null);
  await waitFor(() => panel.logouts.some(({ token }) => token === limitedToken));
  assert.equal(panel.acceptsToken(limitedToken), false, 'its session ended at the panel');
  assert.equal(panel.acceptsToken(adminToken), true, 'the panel own session goes on');
  panel.requests.splice(0);
  await core.runServiceAction(panelId, { ...web, action: 'restart' });
  assert.equal(TOKEN_IN(restartsAt()[0]!), adminToken);
  assert.equal(plans.at(-1)!.panels[0]!.account, DEMO_USER.email);
  const { entries } = await core.listActivity({ panelId, limit: 10 });
  assert.ok(
    entries.some(({ what, account }) => what.action === 'logOut' && account === LIMITED.email),
    'its log out is recorded as it',
  );
});

test('bad input gets a message, never a crash: its own account again, an unknown account, a wrong password', async () => {
  await rejectsWith(
    core.addPanelAccount(panelId, { kind: 'password', email: DEMO_USER.email, password: DEMO_USER.password }),
    'INVALID_INPUT',
    /already signed in as demo@paneldeck\.test/,
  );
  await rejectsWith(core.chooseWriteAccount(panelId, '00000000-0000-4000-8000-000000000000'), 'NOT_FOUND');
  await rejectsWith(core.removePanelAccount(panelId, '00000000-0000-4000-8000-000000000000'), 'NOT_FOUND');
  const count = (await panelNow()).accounts.length;
  await assert.rejects(core.addPanelAccount(panelId, { kind: 'password', email: LIMITED.email, password: 'wrong' }));
  assert.equal((await panelNow()).accounts.length, count, 'a refused log in keeps nothing');
});

/** Waits for `done` on the panel's next requests (the log out at the panel is not waited for by the removal). */
async function waitFor(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}
