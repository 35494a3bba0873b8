import type { Panel } from '../../../shared/types.ts';
import type { NewRequests, Run } from './harness.ts';
import { isStrong, type Backend } from './keyring.ts';
import { describePanel, restoredOnRestart, type Model, type PanelModel } from './model.ts';
import type { StepRecord } from './step-record.ts';
import { checkEndedTokens, checkTrust } from './token-checks.ts';
import { refreshIssued } from './world.ts';

/**
 * The rules every step must leave intact, checked against the real system: the servers' logs,
 * the files in the data folder, and a start of the app on a copy of that folder.
 */

export async function checkInvariants(run: Run, model: Model, record: StepRecord): Promise<void> {
  const received = run.newRequests();
  const free = run.newFreePortRequests();
  checkWhatServersReceived(run, received, record.foreign);
  checkWhatFreePortsReceived(run, free, record.foreign);
  checkTrust(run, received, record);
  checkEndedTokens(run, model, received, free, record);
  checkNoWeakCopies(run, model);
  checkNoSecretsInFiles(run);
  await checkRestartNow(run, model);
}

/** Invariant 2: a token only ever goes back to the server that issued it; a password only to its own server. */
function checkWhatServersReceived(run: Run, received: NewRequests[], foreign: Set<string>): void {
  const passwords = new Map(run.world.servers.map((server) => [server.user.password, server.index]));
  for (const { server, requests } of received) {
    for (const request of requests) {
      const authorization = request.headers.authorization;
      const bearer = typeof authorization === 'string' ? /^Bearer (.+)$/.exec(authorization)?.[1] : undefined;
      if (authorization !== undefined && bearer === undefined)
        run.fail(`[invariant 2] S${server.index} received an Authorization header that is not a bearer token`);
      if (bearer !== undefined && !server.known.has(bearer)) {
        refreshIssued(server);
        if (!server.known.has(bearer)) {
          const issuer = run.world.servers.find((other) => other.known.has(bearer));
          run.fail(
            `[invariant 2] S${server.index} received a bearer token it never issued${issuer ? ` (S${issuer.index} issued it)` : ''}`,
          );
        }
      }
      if (request.path === '/api/login') {
        const password = (JSON.parse(request.body) as { password?: unknown }).password;
        const owner = typeof password === 'string' ? passwords.get(password) : undefined;
        if (owner !== undefined && owner !== server.index) {
          if (!foreign.has(`S${server.index}\0${String(password)}`))
            run.fail(`[invariant 2] S${server.index} received the password of S${owner}'s user`);
          run.stats.passwordsToMovedPanel++;
          run.trace.push(`     note: S${server.index} received S${owner}'s password from a log in that raced the panel's move`);
        }
      }
    }
  }
}

/** Invariant 2 at addresses with no panel: a panel there is never signed in, so no token goes there, nor any panel's password. */
function checkWhatFreePortsReceived(run: Run, free: { index: number; requests: string[] }[], foreign: Set<string>): void {
  const tokens = new Set(run.runTokens);
  for (const { index, requests } of free) {
    for (const request of requests) {
      const bearer = /\r\nauthorization: *Bearer ([^\r]+)/i.exec(request)?.[1];
      if (bearer !== undefined)
        run.fail(
          `[invariant 2] F${index}, an address with no panel, received a bearer token${tokens.has(bearer) ? ' a panel issued' : ''}`,
        );
      for (const server of run.world.servers) {
        const password = server.user.password;
        if (!request.includes(password)) continue;
        if (!foreign.has(`F${index}\0${password}`))
          run.fail(`[invariant 2] F${index}, an address with no panel, received the password of S${server.index}'s user`);
        run.stats.passwordsToMovedPanel++;
        run.trace.push(`     note: F${index} received S${server.index}'s password from a log in that raced the panel's move`);
      }
    }
  }
}

/** Invariant 3: with weak protection off, nothing in tokens.json is under the built-in key. */
function checkNoWeakCopies(run: Run, model: Model): void {
  if (model.weak || model.weakCleanupPending) return;
  for (const [id, entry] of run.storedTokens()) {
    if (entry.backend === 'basic_text') {
      run.fail(`[invariant 3] weak protection is off, yet tokens.json holds a basic_text copy for ${labelOf(model, id)}`);
    }
  }
}

/** Invariant 5: no token or password in clear in any file, in any case, nor merely base64-encoded. */
function checkNoSecretsInFiles(run: Run): void {
  const secrets = [...run.runTokens, ...run.world.servers.map((server) => server.user.password), ...run.wrongPasswords];
  const needles = secrets.flatMap((secret) => [secret.toLowerCase(), Buffer.from(secret).toString('base64').toLowerCase()]);
  for (const file of run.files()) {
    const content = file.content.toLowerCase();
    if (needles.some((needle) => content.includes(needle))) run.fail(`[invariant 5] ${file.name} holds a token or a password in clear`);
  }
}

/** Invariants 1 and 4, for a start of the app now with the same keyring: exactly the restorable panels are signed in. */
async function checkRestartNow(run: Run, model: Model): Promise<void> {
  const listing = await run.shadowRestart();
  checkRestartListing(run, model, listing, run.backend, 'a restart now');
}

/** `diskFailed`: a write failed during the start, so a copy under the built-in key may not have been re-encrypted yet. */
export function checkRestartListing(run: Run, model: Model, listing: Panel[], backend: Backend, when: string, diskFailed = false): void {
  const known = new Set(model.panels.map((panel) => panel.id));
  for (const entry of listing) {
    if (known.has(entry.id)) continue;
    const removed = model.removed.find((panel) => panel.id === entry.id);
    run.fail(
      removed ? `[removal] ${removed.label} is back in the list after ${when}` : `[restart] an unknown panel ${entry.id} after ${when}`,
    );
  }
  for (const panel of model.panels) {
    const entry = listing.find((candidate) => candidate.id === panel.id);
    if (!entry) return run.fail(`[restart] ${panel.label} is missing after ${when}`);
    const expected = restoredOnRestart(panel, model, backend, run.keyrings);
    if (entry.signedIn && panel.ended !== null) {
      const which = panel.ended === 'expired' ? '[expiry] the panel rejected the token, yet' : `[invariant 1] after ${panel.ended},`;
      run.fail(`${which} ${panel.label} is signed in again after ${when} (model ${describePanel(panel)})`);
    }
    if (entry.signedIn !== expected) {
      run.fail(
        `[invariant 4] after ${when} (backend ${backend}) ${panel.label} is ${entry.signedIn ? 'signed in' : 'signed out'}; the model says ${expected ? 'signed in' : 'signed out'} (${describePanel(panel)})`,
      );
    }
    if (entry.signedIn) {
      const storage = isStrong(backend) ? 'keyring' : 'weak';
      const notUpgraded = diskFailed && panel.copy?.backend === 'basic_text' && entry.tokenStorage === 'weak';
      if (entry.tokenStorage !== storage && !notUpgraded)
        run.fail(`[restart] ${panel.label} restored as ${entry.tokenStorage}, expected ${storage}`);
    }
  }
}

export function labelOf(model: Model, id: string): string {
  const panel: PanelModel | undefined = [...model.panels, ...model.removed].find((candidate) => candidate.id === id);
  return panel?.label ?? id;
}
