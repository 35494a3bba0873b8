import type { Run } from './harness.ts';
import type { ForeignPasswords } from './invariants.ts';
import { describeCall, describeOutcome, describeSpec, invoke, resolve, type CallSpec } from './calls.ts';
import { GroupJudge } from './judge.ts';
import type { Model } from './model.ts';
import { targetLabel } from './world.ts';

/**
 * One to three service calls started at once, in an order the scheduler picks, their awaits
 * interleaved; then what each call answered and what the service shows are held to the model.
 */

/** Runs the group; returns the passwords a server may see for another panel in this step. */
export async function runGroup(run: Run, model: Model, specs: readonly CallSpec[]): Promise<ForeignPasswords> {
  const calls = resolve(run, model, specs);
  const foreign: ForeignPasswords = new Set();
  if (calls.length === 0) {
    run.note(`(nothing to do: ${specs.map(describeSpec).join(' ‖ ')})`);
    return foreign;
  }
  const firedBefore = run.faultsFired;
  run.released.length = 0;
  const outcomes = await run.wait(Promise.all(calls.map((call) => run.start(describeCall(call), () => invoke(run, call)))));
  const faultFired = run.faultsFired > firedBefore;
  const listing = await run.wait(run.service.listPanels());
  const status = await run.wait(run.service.getAppStatus());
  const results = calls.map((call, index) => `${describeCall(call)} → ${describeOutcome(model, outcomes[index]!)}`);
  run.note(`${results.join(' ‖ ')}`);
  if (calls.length > 1 || faultFired) run.trace.push(`     order: ${run.released.join(', ')}`);

  // A log in that raced a move of its panel may carry the old address's password to the new one:
  // the operator typed it for the panel as it was (see the report).
  for (const call of calls) {
    if (call.kind !== 'logIn') continue;
    for (const move of calls) {
      if (move.kind === 'readdress' && move.panel === call.panel) foreign.add(`${targetLabel(move.target)}\0${call.credentials.password}`);
    }
  }

  new GroupJudge(run, model, calls, outcomes, faultFired).judge(listing, status);
  return foreign;
}
