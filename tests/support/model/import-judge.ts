import type { Panel } from '../../../shared/types.ts';
import type { Call, Result } from './calls.ts';
import type { Outcome, Run } from './harness.ts';
import { newPanelModel, type Model, type PanelModel } from './model.ts';
import { certificateName, type Imported } from './tls-calls.ts';
import { sameTarget, targetOfBaseUrl, type Target } from './world.ts';

/** What imports may do (never move a pin or a token), and what a panel has presented after a group. */

/** The panels the group added: by an add (signed out, trusting nothing) or by an import. */
export function addedPanels(run: Run, model: Model, calls: Call[], outcomes: Outcome<Result>[], listing: Panel[]): PanelModel[] {
  const added: PanelModel[] = [];
  const known = new Set([...model.panels, ...model.removed].map((panel) => panel.id));
  for (const entry of listing) {
    if (known.has(entry.id)) continue;
    const target = targetOfBaseUrl(run.world, entry.baseUrl);
    const call = calls.find((candidate) => candidate.kind === 'add' && target !== null && sameTarget(candidate.target, target));
    if (call?.kind !== 'add' || !target) {
      added.push(addedByImport(run, calls, outcomes, entry, target));
      continue;
    }
    if (entry.signedIn) run.fail(`[invariant 1] the new panel ${call.label} is signed in`);
    if (entry.trustedCertificate) run.fail(`[trust] the new panel ${call.label} trusts a certificate nobody trusted`);
    added.push(newPanelModel(call.label, entry.id, target, null));
  }
  for (const [index, call] of calls.entries()) {
    const outcome = outcomes[index]!;
    if (call.kind === 'add' && outcome.ok && !added.some((panel) => panel.id === (outcome.value as Panel).id)) {
      run.fail(`[list] ${call.label} was added but is not listed`);
    }
  }
  return added;
}

/**
 * A panel in the list that no add made: one an import added, at its new panel's address, or at
 * the address of a panel in the list that moved or was removed while the import was under way.
 * It is signed out, holds no token, and trusts what the file trusted for it.
 */
function addedByImport(run: Run, calls: Call[], outcomes: Outcome<Result>[], entry: Panel, target: Target | null): PanelModel {
  const fail = (message: string) => run.fail(`[import] ${message}`);
  for (const [index, call] of calls.entries()) {
    if (call.kind !== 'import' || target === null || codeIs(outcomes[index]!, 'INVALID_INPUT')) continue;
    const asNew = call.target !== null && sameTarget(call.target, target);
    const asExisting = call.existing !== null && sameTarget(call.existing.target, target);
    if (!asNew && !asExisting) continue;
    const label = asNew ? call.label! : `${call.existing!.label}+`;
    const pinned = asNew ? call.what === 'pinNew' : call.what === 'pinExisting';
    const expected = pinned ? call.pin : null;
    const pin = entry.trustedCertificate?.sha256 ?? null;
    if (entry.signedIn) fail(`the panel ${label} an import added is signed in: the import carried a token`);
    if (run.storedTokens().has(entry.id)) fail(`tokens.json holds a token for ${label}, which an import added`);
    if (pin !== expected)
      fail(
        `${label}, added by an import, trusts ${certificateName(run.world, pin)}; the file trusted ${certificateName(run.world, expected)}`,
      );
    return newPanelModel(label, entry.id, target, pin);
  }
  return run.fail(`[list] an unknown panel at ${entry.baseUrl}`);
}

function codeIs(outcome: Outcome<Result>, code: string): boolean {
  return !outcome.ok && outcome.code === code;
}

/** The preview says what the import does with a pin; alone, the import does just that. */
export function checkImportAnswer(
  run: Run,
  call: Extract<Call, { kind: 'import' }>,
  imported: Imported,
  alone: boolean,
  fail: (message: string) => never,
): void {
  run.stats.imports++;
  const { preview, result } = imported;
  const [first] = preview.rows;
  if (call.what === 'pinExisting' && first && first.status !== 'new') {
    run.stats.pinsIgnored++;
    if (first.trustsCertificate || first.changes.includes('trusted certificate'))
      fail(`the preview says the certificate of ${call.existing!.label} would be trusted`);
  }
  if (!alone) return;
  if (call.what === 'pinExisting') {
    if (first?.status !== 'duplicate' && first?.status !== 'same') fail(`the row for ${call.existing!.label} is ${first?.status}`);
    if (call.existing!.pin !== call.pin && !first?.message?.includes(call.pin!))
      fail('the preview does not name the certificate it ignores');
  }
  if (call.what === 'pinNew' && (preview.rows.at(-1)?.status !== 'new' || !preview.rows.at(-1)?.trustsCertificate))
    fail('the new panel is not flagged as trusting a certificate');
  if (result.added !== (call.target ? 1 : 0)) fail(`added ${result.added} panels`);
}

/** What trustCertificate accepts for the panel after the group, as far as the model can tell. */
export function presentedAfter(panel: PanelModel, calls: Call[], outcomes: Outcome<Result>[], refused: string[]): PanelModel['presented'] {
  const on = (kind: Call['kind']) =>
    calls.flatMap((call, index) => (call.kind === kind && 'panel' in call && call.panel === panel ? [outcomes[index]!] : []));
  // A removal forgets it too, also when its write fails and the panel stays listed.
  const cleared = on('readdress').length > 0 || on('remove').length > 0 || on('trust').some((outcome) => outcome.ok);
  const unsure = on('trust').some((outcome) => codeIs(outcome, 'STORAGE')) || calls.some((call) => call.kind === 'cancel');
  const distinct = new Set(refused);
  if (unsure || distinct.size > 1 || (cleared && distinct.size > 0)) return 'unknown';
  if (cleared) return null;
  return distinct.size === 1 ? [...distinct][0]! : panel.presented;
}
