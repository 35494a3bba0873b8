import type { Outcome, Run } from './harness.ts';
import { describeCall, describeOutcome, describeSpec, invoke, resolve, type Call, type CallSpec, type Result } from './calls.ts';
import { GroupJudge } from './judge.ts';
import type { Model } from './model.ts';
import { notePanel, noteTrusted, type StepRecord } from './step-record.ts';
import { presentingNow, type TlsJudge } from './tls-judge.ts';
import { targetLabel } from './world.ts';

/**
 * One to three calls of the core started at once, in an order the scheduler picks, their awaits
 * interleaved; then what each call answered and what the core shows are held to the model.
 */

const DISTURBING = new Set<Call['kind']>(['readdress', 'trust']);

/** Runs the group; notes in `record` what the checks after it need. */
export async function runGroup(run: Run, model: Model, specs: readonly CallSpec[], record: StepRecord): Promise<void> {
  const calls = resolve(run, model, specs);
  if (calls.length === 0) {
    run.note(`(nothing to do: ${specs.map(describeSpec).join(' ‖ ')})`);
    return;
  }
  const firedBefore = run.faultsFired;
  const presenting = presentingNow(run);
  run.released.length = 0;
  // When each log out or removal returned: from then on, its token must go nowhere.
  const returned = new Map<Call, ReturnType<Run['requestCounts']>>();
  const outcomes = await run.wait(
    Promise.all(
      calls.map((call) =>
        run.start(describeCall(run, call), () => {
          const calling = invoke(run, call);
          return call.kind === 'logOut' || call.kind === 'remove'
            ? calling.finally(() => returned.set(call, run.requestCounts()))
            : calling;
        }),
      ),
    ),
  );
  const faultFired = run.faultsFired > firedBefore;
  const listing = await run.wait(run.core.listPanels());
  const status = await run.wait(run.core.getAppStatus());
  const results = calls.map((call, index) => `${describeCall(run, call)} → ${describeOutcome(model, outcomes[index]!)}`);
  run.note(`${results.join(' ‖ ')}`);
  if (calls.length > 1 || faultFired) run.trace.push(`     order: ${run.released.join(', ')}`);

  for (const call of calls) {
    // A log in that raced a move of its panel may carry the old address's password to the new one:
    // the operator typed it for the panel as it was (see the report).
    if (call.kind === 'logIn') {
      for (const move of calls) {
        if (move.kind === 'readdress' && move.panel === call.panel)
          record.foreign.add(`${targetLabel(move.target)}\0${call.credentials.password}`);
      }
    }
    // Where the panel's requests go in this step, and what may be trusted there.
    if (call.kind === 'readdress') notePanel(run.world, record, call.panel, call.target, null);
    if (call.kind === 'trust') notePanel(run.world, record, call.panel, call.panel.target, call.sha256);
    // What an import may pin on a panel it adds (before the judge, so that a leak is named as one first).
    if (call.kind === 'import')
      for (const target of [call.target, call.existing?.target]) if (target) noteTrusted(run.world, record, target, call.pin);
  }

  const judge = new GroupJudge(run, model, calls, outcomes, faultFired, presenting);
  noteSignIns(run, calls, outcomes, judge.tls, returned, record);
  judge.judge(listing, status);
  // After the group: every panel at its address with its pin (new panels, new pins included).
  for (const panel of model.panels) notePanel(run.world, record, panel, panel.target, panel.pin);
}

/** Notes the group's log ins, and its log outs and removals of signed-in panels with where and when they returned. */
function noteSignIns(
  run: Run,
  calls: Call[],
  outcomes: Outcome<Result>[],
  tls: TlsJudge,
  returned: Map<Call, ReturnType<Run['requestCounts']>>,
  record: StepRecord,
): void {
  for (const [index, call] of calls.entries()) {
    const outcome = outcomes[index]!;
    if (call.kind === 'logIn' && (outcome.ok || outcome.code === 'STORAGE'))
      record.loggedIn.set(call.panel.id, outcome.ok || record.loggedIn.get(call.panel.id) === 'ok' ? 'ok' : 'maybe');
    if (call.kind !== 'logIn' && call.kind !== 'logOut' && call.kind !== 'remove') continue;
    // A move or a trust on the panel meanwhile leaves unsure where its requests went.
    const alone = calls.every((other) => !('panel' in other) || other.panel !== call.panel || !DISTURBING.has(other.kind));
    const reachable = alone && tls.reachable(call.panel) && call.panel.target.kind === 'server' ? call.panel.target.index : null;
    if (call.kind === 'logIn' && reachable !== null) record.loggingIn.set(call.panel.id, reachable);
    const held = call.panel.signedIn ? call.panel.held : [];
    if (call.kind === 'logIn' || held.length === 0) continue;
    // Only a log out that did its work here asks the panel; a removal asks whatever its write did.
    const asked = call.kind === 'remove' || outcome.ok;
    // With a log in racing it, which token it ended is not known: the log in's are checked (see checkEndedTokens).
    const raced = calls.some((other) => other.kind === 'logIn' && other.panel === call.panel);
    const atPanel = asked && !raced ? reachable : null;
    record.ended.push({ panel: call.panel, call: call.kind, held, after: returned.get(call)!, atPanel });
    if (atPanel !== null && call.kind === 'logOut' && outcome.ok) {
      const note = (outcome.value as { signedOutReason?: { message: string } | null }).signedOutReason;
      if (note)
        run.fail(
          `[log out at panel] logOut(${call.panel.label}) says the panel could not end the session, though it was reachable: ${note.message}`,
        );
    }
  }
}
