import type { ErrorCode } from '../../../shared/contract/errors.ts';
import type { AppStatus, Panel, PanelCheck, SessionResult } from '../../../shared/types.ts';
import type { Outcome, Run } from './harness.ts';
import type { Model, PanelModel } from './model.ts';
import { allTargets, credentialsFor, sameTarget, targetAddress, targetLabel, type Target } from './world.ts';
import {
  describeTrustCall,
  describeTrustSpec,
  invokeTrust,
  resolveTrust,
  type Imported,
  type TrustCall,
  type TrustSpec,
} from './tls-calls.ts';

/** The calls a step can start at once, as generated and as resolved against the model when the step runs. */

/** A call as generated: panels and addresses are picked among those there are when it runs. */
export type CallSpec =
  | { kind: 'logIn'; pick: number; right: boolean }
  | { kind: 'logOut' | 'remove' | 'rename' | 'getSession' | 'cached'; pick: number }
  | { kind: 'readdress'; pick: number; to: number }
  | { kind: 'weak'; on: boolean }
  | { kind: 'add'; to: number }
  /** checkPanels: of every signed-in panel, or of one. */
  | { kind: 'check'; pick: number; all: boolean }
  | { kind: 'cancel' }
  | TrustSpec;

export type Call =
  | { kind: 'logIn'; panel: PanelModel; credentials: { email: string; password: string }; right: boolean }
  | { kind: 'logOut' | 'remove' | 'rename' | 'getSession' | 'cached'; panel: PanelModel }
  | { kind: 'readdress'; panel: PanelModel; target: Target }
  | { kind: 'weak'; on: boolean }
  | { kind: 'add'; target: Target; label: string }
  /** `panel` null: every signed-in panel. */
  | { kind: 'check'; panel: PanelModel | null }
  | { kind: 'cancel' }
  | TrustCall;

// biome-ignore lint/suspicious/noConfusingVoidType: what the core's methods resolve to, Promise<void> among them
export type Result = Panel | SessionResult | SessionResult[] | PanelCheck[] | AppStatus | Imported | null | void;
export type Code = ErrorCode | 'OK';

export function describeSpec(spec: CallSpec): string {
  switch (spec.kind) {
    case 'logIn':
      return `logIn(#${spec.pick}${spec.right ? '' : ', wrong password'})`;
    case 'readdress':
      return `readdress(#${spec.pick} → unused #${spec.to})`;
    case 'weak':
      return `weak(${spec.on ? 'on' : 'off'})`;
    case 'add':
      return `add(unused #${spec.to})`;
    case 'check':
      return spec.all ? 'checkPanels()' : `checkPanels(#${spec.pick})`;
    case 'cancel':
      return 'cancelChecks()';
    case 'cached':
      return `getCachedSession(#${spec.pick})`;
    case 'trust':
    case 'import':
    case 'swap':
      return describeTrustSpec(spec);
    default:
      return `${spec.kind}(#${spec.pick})`;
  }
}

export function describeCall(run: Run, call: Call): string {
  switch (call.kind) {
    case 'logIn':
      return `logIn(${call.panel.label}${call.right ? '' : ', wrong password'})`;
    case 'readdress':
      return `readdress(${call.panel.label} ${targetLabel(call.panel.target)}→${targetLabel(call.target)})`;
    case 'weak':
      return `weak(${call.on ? 'on' : 'off'})`;
    case 'add':
      return `add(${call.label}@${targetLabel(call.target)})`;
    case 'check':
      return `checkPanels(${call.panel?.label ?? ''})`;
    case 'cancel':
      return 'cancelChecks()';
    case 'cached':
      return `getCachedSession(${call.panel.label})`;
    case 'trust':
    case 'import':
    case 'swap':
      return describeTrustCall(run.world, call);
    default:
      return `${call.kind}(${call.panel.label})`;
  }
}

/** Picks the panels and addresses; drops a call that cannot apply (no panel yet, no address left, a second removal). */
export function resolve(run: Run, model: Model, specs: readonly CallSpec[]): Call[] {
  const calls: Call[] = [];
  const taken = model.panels.map((panel) => panel.target);
  const unused = () => allTargets(run.world).filter((target) => !taken.some((used) => sameTarget(used, target)));
  let nextLabel = model.nextLabel;
  const picking = {
    unused,
    take: (target: Target) => taken.push(target),
    label: () => `P${nextLabel++}`,
  };
  for (const spec of specs) {
    if (spec.kind === 'trust' || spec.kind === 'import' || spec.kind === 'swap') {
      // One import at a time: only the newest preview can be applied.
      if (spec.kind === 'import' && calls.some((call) => call.kind === 'import')) continue;
      const call = resolveTrust(run, model, spec, picking);
      if (call) calls.push(call);
      continue;
    }
    if (spec.kind === 'weak') {
      calls.push({ kind: 'weak', on: spec.on });
      continue;
    }
    if (spec.kind === 'cancel' || (spec.kind === 'check' && spec.all)) {
      calls.push(spec.kind === 'cancel' ? { kind: 'cancel' } : { kind: 'check', panel: null });
      continue;
    }
    if (spec.kind === 'add') {
      const free = unused();
      const target = free[spec.to % Math.max(free.length, 1)];
      if (!target) continue;
      taken.push(target);
      calls.push({ kind: 'add', target, label: `P${nextLabel++}` });
      continue;
    }
    const panel = model.panels[spec.pick % Math.max(model.panels.length, 1)];
    if (!panel) continue;
    // One removal or move per panel in a group: two would only race each other into NOT_FOUND.
    const moving = (call: Call) => (call.kind === 'remove' || call.kind === 'readdress') && call.panel === panel;
    if ((spec.kind === 'remove' || spec.kind === 'readdress') && calls.some(moving)) continue;
    if (spec.kind === 'readdress') {
      const free = unused();
      const target = free[spec.to % Math.max(free.length, 1)];
      if (!target) continue;
      taken.push(target);
      calls.push({ kind: 'readdress', panel, target });
    } else if (spec.kind === 'logIn') {
      const credentials = credentialsFor(run.world, panel.target, spec.right ? null : run.wrongPassword());
      calls.push({ kind: 'logIn', panel, credentials, right: spec.right });
    } else {
      calls.push({ kind: spec.kind, panel });
    }
  }
  return calls;
}

export function invoke(run: Run, call: Call): Promise<Result> {
  const core = run.core;
  switch (call.kind) {
    case 'logIn':
      return core.logIn(call.panel.id, call.credentials);
    case 'logOut':
      return core.logOut(call.panel.id);
    case 'remove':
      return core.removePanel(call.panel.id);
    case 'rename':
      return core.updatePanel(call.panel.id, { name: `${call.panel.label} renamed` });
    case 'readdress':
      return core.updatePanel(call.panel.id, { address: targetAddress(run.world, call.target) });
    case 'getSession':
      return core.getSession(call.panel.id);
    case 'weak':
      return core.updateSettings({ storeTokensWithWeakProtection: call.on });
    case 'add':
      return core.addPanel({ address: targetAddress(run.world, call.target), name: call.label });
    case 'check':
      return core.checkPanels(call.panel ? [call.panel.id] : undefined);
    case 'cancel':
      return core.cancelChecks();
    case 'cached':
      return core.getCachedSession(call.panel.id);
    case 'trust':
    case 'import':
    case 'swap':
      return invokeTrust(run, call);
  }
}

export const codeOf = (outcome: Outcome<Result>): Code => (outcome.ok ? 'OK' : outcome.code);

/** The answer's code; for checkPanels, each panel's too, and whether a cached session came back. */
export function describeOutcome(model: Model, outcome: Outcome<Result>): string {
  if (!outcome.ok) return outcome.certificate ? `${outcome.code}(${outcome.certificate.slice(0, 5)})` : outcome.code;
  if (outcome.value && typeof outcome.value === 'object' && 'preview' in outcome.value) {
    const { added, updated, unchanged } = outcome.value.result;
    return `OK (added ${added}, updated ${updated}, unchanged ${unchanged})`;
  }
  if (Array.isArray(outcome.value)) {
    const label = (id: string) => model.panels.find((panel) => panel.id === id)?.label ?? id;
    return `OK [${(outcome.value as PanelCheck[]).map((entry) => `${label(entry.panelId)}:${entry.ok ? 'OK' : entry.error.code}`).join(', ')}]`;
  }
  return outcome.value === null ? 'OK (none)' : 'OK';
}
