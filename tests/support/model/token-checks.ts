import type { RecordedRequest } from '../reference-panel/server.ts';
import type { NewRequests, Run } from './harness.ts';
import type { Model, PanelModel } from './model.ts';
import type { StepRecord } from './step-record.ts';
import { certificateName } from './tls-calls.ts';

/**
 * Where passwords and tokens went in a step, held to trust and to the sign-ins that ended:
 * - over TLS, a password or token only reaches a server presenting the certificate trusted for
 *   the panel there, or (nothing pinned for it) one the system trusts; or a token goes back to the
 *   server that issued it, presenting its own certificate, to end its session;
 * - a token of a sign-in that ended (log out, removal, move, a new log in, a log in dropped) is
 *   never sent again: after the call that ended it returned, to nobody, but for one request asking
 *   the panel that issued it to end it (a log in again ends the replaced session unwaited);
 * - after a log out or removal of a reachable panel, that panel no longer accepts the token.
 */

function bearerOf(request: RecordedRequest): string | undefined {
  const authorization = request.headers.authorization;
  return typeof authorization === 'string' ? /^Bearer (.+)$/.exec(authorization)?.[1] : undefined;
}

const isLogIn = (request: RecordedRequest) => request.path === '/api/login';
const isLogOut = (request: RecordedRequest) => request.path === '/api/logout';

/** A password or token reached a TLS server only over a connection presenting a certificate trusted there. */
export function checkTrust(run: Run, received: NewRequests[], record: StepRecord): void {
  for (const { server, requests } of received) {
    if (!server.tls) continue;
    const trusted = record.trusted.get(server.index) ?? new Set<string>();
    for (const request of requests) {
      const secret = bearerOf(request) !== undefined ? 'a token' : isLogIn(request) ? 'a password' : null;
      if (secret === null) continue;
      run.stats.tlsSecrets++;
      if (request.certificate !== null && trusted.has(request.certificate)) continue;
      // A token going back to the very server that issued it, presenting its own certificate, to end
      // its session (a log in dropped after its panel moved away ends it at the old address).
      const bearer = bearerOf(request);
      if (bearer !== undefined && isLogOut(request) && server.known.has(bearer) && request.certificate === server.tls.own.sha256) continue;
      const names = [...trusted].map((sha) => certificateName(run.world, sha)).join(', ') || 'nothing';
      run.fail(
        `[trust] S${server.index} received ${secret} (${request.method} ${request.path}) over a connection presenting ` +
          `${certificateName(run.world, request.certificate)}; trusted for the panel there: ${names} (its pin, or with none what the system trusts)`,
      );
    }
  }
}

/** The ended sign-ins' tokens go nowhere again; the panels that were asked no longer accept them; then the book is brought up to date. */
export function checkEndedTokens(
  run: Run,
  model: Model,
  received: NewRequests[],
  free: { index: number; requests: string[]; from: number }[],
  record: StepRecord,
): void {
  const book = run.tokens;
  for (const { server, requests, from } of received) {
    for (const [offset, request] of requests.entries()) {
      const bearer = bearerOf(request);
      if (bearer === undefined) continue;
      const dead = book.dead.get(bearer);
      if (dead && !book.takeEnding(bearer, isLogOut(request) && server.known.has(bearer)))
        run.fail(`[log out] S${server.index} received (${request.method} ${request.path}) the token of ${dead}`);
      for (const ended of record.ended) {
        // A removal's own request asking the panel to end the session goes out after it (and a log out racing it) returned.
        const removal = record.ended.some((one) => one.call === 'remove' && one.panel.id === ended.panel.id);
        const own = removal && isLogOut(request) && ended.panel.target.kind === 'server' && ended.panel.target.index === server.index;
        if (own || !ended.held.includes(bearer) || from + offset < ended.after.servers[server.index]!) continue;
        run.fail(
          `[log out] S${server.index} received ${ended.panel.label}'s token (${request.method} ${request.path}) after ${ended.call}(${ended.panel.label}) returned`,
        );
      }
    }
  }
  for (const { index, requests, from } of free) {
    for (const [offset, request] of requests.entries()) {
      const bearer = /\r\nauthorization: *Bearer ([^\r]+)/i.exec(request)?.[1];
      const ended = record.ended.find(
        (one) => bearer !== undefined && one.held.includes(bearer) && from + offset >= one.after.free[index]!,
      );
      if (bearer !== undefined && (book.dead.has(bearer) || ended)) run.fail(`[log out] F${index} received the token of an ended sign-in`);
    }
  }
  const fresh = freshByPanel(received, record);
  for (const ended of record.ended) {
    run.stats.endedSignIns++;
    if (ended.atPanel === null) continue;
    const server = run.world.servers[ended.atPanel]!;
    run.stats.endedAtPanelChecked++;
    // With several tokens held (log ins raced), the one the sign-in kept must be the one ended.
    if (ended.held.length > 0 && ended.held.every((token) => server.panel.acceptsToken(token)))
      run.fail(
        `[log out at panel] after ${ended.call}(${ended.panel.label}) returned, S${server.index} still accepts the token of the sign-in it ended, ` +
          `though the panel was reachable (${server.panel.logouts.length} log outs recorded there)`,
      );
  }
  checkDroppedLogIns(run, model, fresh, record);
  updateBook(run, model, fresh, record);
}

/**
 * A panel signed out after a step in which it logged in (a log out or a removal came first, the
 * sign-in could not be recorded): the sessions its log ins opened at its reachable panel were
 * ended there, whether the sign-in kept the token for a while or dropped it at once.
 */
function checkDroppedLogIns(run: Run, model: Model, fresh: Map<string, string[]>, record: StepRecord): void {
  for (const [id, index] of record.loggingIn) {
    const panel = [...model.panels, ...model.removed].find((one) => one.id === id);
    if (!panel || (model.panels.includes(panel) && panel.signedIn)) continue;
    const server = run.world.servers[index]!;
    const open = (fresh.get(id) ?? []).filter((token) => server.panel.acceptsToken(token));
    run.stats.droppedLogInsChecked++;
    if (open.length > 0)
      run.fail(
        `[log out at panel] ${panel.label} is signed out after a step in which it logged in, yet S${index} still accepts ` +
          `${open.length} token(s) those log ins got, though the panel was reachable (${panel.ended ?? 'not signed in'})`,
      );
  }
}

/** The tokens the servers issued in the step, by the panel whose log ins they answered. */
function freshByPanel(received: NewRequests[], record: StepRecord): Map<string, string[]> {
  const fresh = new Map<string, string[]>();
  for (const { server, fresh: tokens } of received) {
    const owner = record.panelAt.get(server.index);
    if (owner === undefined || tokens.length === 0) continue;
    fresh.set(owner, [...(fresh.get(owner) ?? []), ...tokens]);
  }
  return fresh;
}

/** Gives the step's new tokens to their panels (`loggedIn`: whose log in succeeded); kills what no sign-in holds any more. */
function updateBook(run: Run, model: Model, fresh: Map<string, string[]>, record: StepRecord): void {
  const book = run.tokens;
  const step = `step ${run.steps}`;
  const kill = (panel: PanelModel, tokens: string[], why: string, kind: string) => {
    for (const token of book.kill(tokens, `${panel.label}'s sign-in, ${why} (${step})`)) {
      const issuer = run.world.servers.find((server) => server.known.has(token));
      const open = run.stats.sessionsLeftOpen;
      if (issuer?.panel.acceptsToken(token)) open[kind] = (open[kind] ?? 0) + 1;
    }
  };
  for (const panel of [...model.panels, ...model.removed]) {
    const mine = fresh.get(panel.id) ?? [];
    const removed = !model.panels.includes(panel);
    // Signed out only because this start cannot read its copy: a later start may bring it back.
    const dormant = !panel.signedIn && panel.ended === null && panel.copy !== null;
    if (dormant) panel.held.push(...mine);
    else if (removed || !panel.signedIn) {
      const kind = removed ? 'remove' : (panel.ended ?? 'signed out');
      kill(panel, [...panel.held, ...mine], removed ? 'removed' : `ended (${kind})`, kind);
      panel.held = [];
    }
    if (removed || !panel.signedIn) continue;
    const loggedIn = record.loggedIn.get(panel.id);
    if (loggedIn === undefined || mine.length === 0) {
      kill(panel, mine, 'a log in that was dropped', 'dropped log in');
      continue;
    }
    if (loggedIn === 'ok') kill(panel, panel.held, 'replaced by a new log in', 'replaced by a new log in');
    panel.held = loggedIn === 'ok' ? mine : [...panel.held, ...mine];
  }
}
