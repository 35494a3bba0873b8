import { writeAccountOf } from '../storage/panel-record.ts';
import { plural } from '../../../shared/counts.ts';
import { holdsSecret, MASKED_VALUE } from '../../../shared/secret-fields.ts';
import type { Generation } from '../../../shared/types.ts';
import type { PlannedPanel, PlannedRequest, PlanLeftOut, TypedConfirmation, WritePlan } from '../../../shared/write-plan.ts';
import { normaliseAddress } from '../common/address.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';

/** The generations as a plan names them. */
const GENERATION_LABELS: Readonly<Record<Generation, string>> = {
  public: 'Easypanel 2.33+',
  rpc: 'Easypanel 2.31–2.32',
  trpc: 'Easypanel 2.30 or older',
};

/** A panel of a plan, with the requests it will get. */
export function plannedPanel(record: PanelRecord, requests: PlannedRequest[], generation: Generation = record.generation): PlannedPanel {
  return {
    panelId: record.id,
    name: record.name,
    address: normaliseAddress(record.baseUrl, { allowPlainHttp: record.allowPlainHttp }).display,
    production: record.colour === 'red',
    generation: GENERATION_LABELS[generation],
    account: writeAccountOf(record).label ?? 'its sign-in',
    requests,
  };
}

/** "POST /api/restartAppService": a request as it is sent, under the panel's API. */
export function requestLine(method: 'GET' | 'POST', route: string): string {
  return `${method} /api${route}`;
}

/** Lines of an input a plan shows, and characters: an input is read before it is confirmed, never scrolled for minutes. */
const INPUT_LINES = 40;
const INPUT_CHARACTERS = 8_000;

/**
 * An input as a plan shows it: JSON, two spaces a level, every secret value masked (the window's
 * rule, so the confirmation never shows a password the console hid), cut to its first lines with
 * how many more there are. Undefined when there is no input.
 */
export function plannedInput(input: unknown): string | undefined {
  if (input === undefined) return undefined;
  const text = JSON.stringify(input, (key, value: unknown) => (key !== '' && holdsSecret(key, value) ? MASKED_VALUE : value), 2) ?? '';
  const lines = text.split('\n');
  let shown = lines.slice(0, INPUT_LINES).join('\n');
  if (shown.length > INPUT_CHARACTERS) shown = `${shown.slice(0, INPUT_CHARACTERS)}…`;
  const more = lines.length - INPUT_LINES;
  return more > 0 ? `${shown}\n… and ${plural(more, 'more line')}` : shown;
}

/**
 * The one rule for every write: when a production (red) panel is among those written to, a phrase
 * is typed in main's confirmation: with one red panel, its name; with several, what is done and
 * how much ("restart 12 services", "send createProject to 3 panels").
 */
export function typedConfirmationFor(panels: readonly PlannedPanel[], several: string): TypedConfirmation | null {
  const red = panels.filter((panel) => panel.production && panel.requests.length > 0);
  if (red.length === 0) return null;
  if (red.length === 1) return { text: red[0]!.name, why: `${red[0]!.name} is a production panel: type its name to confirm.` };
  return { text: several, why: `${plural(red.length, 'production panel')} are among these: type "${several}" to confirm.` };
}

/** A plan, its typed phrase worked out by the one rule; panels with no request are left out of its list. */
export function writePlan(
  fields: Omit<WritePlan, 'typedConfirmation' | 'panels'> & { panels: PlannedPanel[]; leftOut: PlanLeftOut[]; several: string },
): WritePlan {
  const { several, ...plan } = fields;
  const panels = plan.panels.filter((panel) => panel.requests.length > 0);
  return { ...plan, panels, typedConfirmation: typedConfirmationFor(panels, several) };
}
