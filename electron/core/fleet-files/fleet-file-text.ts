import { isSha256Fingerprint } from '../../../shared/contract/errors.ts';
import {
  FLEET_FILE_FORMAT,
  FLEET_FILE_LIMITS,
  FLEET_FILE_VERSION,
  FLEET_PANEL_FIELDS,
  type FleetDocument,
  type FleetFilePanel,
} from '../../../shared/fleet-file.ts';
import { cleanGroup, cleanTags, groupProblem, isPanelColour, LABEL_LIMITS, PANEL_NAME_MAX, tagProblem } from '../../../shared/labels.ts';
import { GENERATIONS, type Generation } from '../../../shared/types.ts';
import { normaliseAddress } from '../common/address.ts';
import { isRecord } from '../common/guards.ts';
import { mapInSlices } from '../common/time-slices.ts';

/**
 * A fleet file read and written as text: read whole, every field checked, and refused whole with
 * what to do when anything is not what this version writes (a file Paneldeck would write back
 * without a field it does not know loses that field); written in one canonical form, so that the
 * same fleet is always the same bytes and a change is the lines it changed.
 */

export type FleetFileRead = { ok: true; document: FleetDocument; baseUrls: string[] } | { ok: false; problem: string };

const TOP_FIELDS = new Set(['format', 'version', 'readOnly', 'panels']);
const PANEL_FIELDS: ReadonlySet<string> = new Set(FLEET_PANEL_FIELDS);
/** Names a secret may go by: such a field is refused by name, so the message can say why. */
const SECRET_NAMES = /token|password|secret|email|code|otp|cookie|session|key/i;

/** The canonical text of a fleet: panels by address, fields in their order, two spaces, a newline at the end. */
export function fleetFileText(document: FleetDocument): string {
  const panels = document.panels
    .map((panel) => Object.fromEntries(FLEET_PANEL_FIELDS.map((field) => [field, panel[field]])) as unknown as FleetFilePanel)
    .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  const ordered = { format: FLEET_FILE_FORMAT, version: FLEET_FILE_VERSION, readOnly: document.readOnly, panels };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** Reads a fleet file's text; refused with a message saying what is wrong and what to do. */
export function readFleetFile(text: string): FleetFileRead {
  const opened = openDocument(text);
  return 'problem' in opened ? refused(opened.problem) : documentOf(opened, opened.panels.map(readPanel));
}

/**
 * `readFleetFile` with its entries checked in slices of main's event loop: a file of ten thousand
 * panels (each address parsed) would otherwise hold main for a tenth of a second.
 */
export async function readFleetFileInSlices(text: string): Promise<FleetFileRead> {
  const opened = openDocument(text);
  return 'problem' in opened ? refused(opened.problem) : documentOf(opened, await mapInSlices(opened.panels, readPanel));
}

type Opened = { readOnly: boolean; panels: unknown[] };

/** The document's frame (format, version, fields, the panels' list), or what is wrong with it. */
function openDocument(text: string): Opened | { problem: string } {
  if (text.length > FLEET_FILE_LIMITS.bytes) return { problem: 'is larger than 16 MB: it is not a fleet file Paneldeck wrote.' };
  if (/^(<{7}|={7}|>{7})( |$)/m.test(text))
    return { problem: 'has unresolved merge conflicts (<<<<<<< lines): resolve them in git, then Paneldeck reads it again.' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const where = error instanceof SyntaxError ? ` (${error.message.replace(/^.*?(at position|line)/i, '$1')})` : '';
    return { problem: `is not valid JSON${where}: fix it, or take it back from git or the synced folder's history.` };
  }
  if (!isRecord(parsed) || parsed.format !== FLEET_FILE_FORMAT)
    return { problem: `is not a Paneldeck fleet file (no "format": "${FLEET_FILE_FORMAT}").` };
  const { version } = parsed;
  if (typeof version === 'number' && Number.isInteger(version) && version > FLEET_FILE_VERSION)
    return {
      problem: `was written by a newer Paneldeck (format ${version}; this one reads ${FLEET_FILE_VERSION}): update Paneldeck to open it.`,
    };
  if (version !== FLEET_FILE_VERSION)
    return { problem: `has no format version this Paneldeck knows ("version": ${JSON.stringify(version)?.slice(0, 20)}).` };
  const unknown = Object.keys(parsed).find((key) => !TOP_FIELDS.has(key));
  if (unknown !== undefined) return { problem: fieldProblem(unknown, 'the file') };
  if (typeof parsed.readOnly !== 'boolean') return { problem: 'has no "readOnly": true or false.' };
  if (!Array.isArray(parsed.panels)) return { problem: 'has no "panels" list.' };
  if (parsed.panels.length > FLEET_FILE_LIMITS.panels)
    return { problem: `lists more than ${FLEET_FILE_LIMITS.panels.toLocaleString('en')} panels.` };
  return { readOnly: parsed.readOnly, panels: parsed.panels };
}

/** The document from its entries as read: the first entry's problem, or a panel listed twice, refuses it whole. */
function documentOf(opened: Opened, reads: readonly ReturnType<typeof readPanel>[]): FleetFileRead {
  const panels: FleetFilePanel[] = [];
  const baseUrls: string[] = [];
  const seen = new Map<string, number>();
  for (const [index, read] of reads.entries()) {
    const entry = opened.panels[index];
    const where = `Panel ${index + 1}${isRecord(entry) && typeof entry.name === 'string' ? ` ("${entry.name.slice(0, 60)}")` : ''}`;
    if (typeof read === 'string') return refused(`has a problem: ${where} ${read}`);
    const earlier = seen.get(read.baseUrl);
    if (earlier !== undefined)
      return refused(`lists the panel ${read.panel.address} twice (panels ${earlier + 1} and ${index + 1}): keep one.`);
    seen.set(read.baseUrl, index);
    panels.push(read.panel);
    baseUrls.push(read.baseUrl);
  }
  return { ok: true, document: { format: FLEET_FILE_FORMAT, version: FLEET_FILE_VERSION, readOnly: opened.readOnly, panels }, baseUrls };
}

const refused = (problem: string): FleetFileRead => ({ ok: false, problem: `This fleet file ${problem}` });

function fieldProblem(field: string, where: string): string {
  const name = JSON.stringify(field.slice(0, 40));
  return SECRET_NAMES.test(field)
    ? `has a field ${name} in ${where}: a fleet file never holds a sign-in or a secret. Remove it; each person's sign-ins stay on their own machine.`
    : `has a field ${name} in ${where} that this Paneldeck does not write: it would be lost at the next change. Remove it, or update Paneldeck.`;
}

/** One panel entry; or what is wrong with it (after "Panel 3 (…)"). */
function readPanel(entry: unknown): { panel: FleetFilePanel; baseUrl: string } | string {
  if (!isRecord(entry)) return 'is not an object.';
  const unknown = Object.keys(entry).find((key) => !PANEL_FIELDS.has(key));
  if (unknown !== undefined) return fieldProblem(unknown, 'it');
  const { address, name, group = null, tags = [], colour = null, notes = '', generation = null } = entry;
  const { allowPlainHttp = false, certificateSha256 = null, readOnly = false } = entry;
  if (typeof address !== 'string' || address.trim() === '') return 'has no "address".';
  if (typeof allowPlainHttp !== 'boolean') return '"allowPlainHttp" is not true or false.';
  let normalised: ReturnType<typeof normaliseAddress>;
  try {
    normalised = normaliseAddress(address.trim(), { allowPlainHttp });
  } catch (error) {
    return `has an address Paneldeck cannot use: ${error instanceof Error ? error.message : 'not an address'}`;
  }
  if (typeof name !== 'string' || name.trim() === '' || name.length > PANEL_NAME_MAX)
    return `needs a "name" of 1 to ${PANEL_NAME_MAX} characters.`;
  if (group !== null && typeof group !== 'string') return '"group" is not text or null.';
  const cleanedGroup = cleanGroup(group);
  const groupWrong = cleanedGroup === null ? null : groupProblem(cleanedGroup);
  if (groupWrong) return groupWrong;
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) return '"tags" is not a list of text.';
  const cleanedTags = cleanTags(tags);
  if (cleanedTags.length > LABEL_LIMITS.tags) return `has more than ${LABEL_LIMITS.tags} tags.`;
  const tagWrong = cleanedTags.map(tagProblem).find((problem) => problem !== null);
  if (tagWrong) return tagWrong;
  if (colour !== null && !isPanelColour(colour)) return `"colour" is not one of Paneldeck's colours.`;
  if (typeof notes !== 'string' || notes.length > FLEET_FILE_LIMITS.notesLength)
    return `"notes" is not text of at most ${FLEET_FILE_LIMITS.notesLength} characters.`;
  if (generation !== null && !(GENERATIONS as readonly unknown[]).includes(generation))
    return `"generation" is not one of ${GENERATIONS.join(', ')} or null.`;
  if (certificateSha256 !== null && !isSha256Fingerprint(certificateSha256))
    return '"certificateSha256" is not a SHA-256 fingerprint (32 hex pairs joined by colons) or null.';
  if (typeof readOnly !== 'boolean') return '"readOnly" is not true or false.';
  return {
    baseUrl: normalised.baseUrl,
    panel: {
      address: normalised.display,
      name: name.trim(),
      group: cleanedGroup,
      tags: cleanedTags,
      colour,
      notes,
      generation: generation as Generation | null,
      allowPlainHttp,
      certificateSha256,
      readOnly,
    },
  };
}
