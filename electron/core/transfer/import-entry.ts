import { GENERATION_PATHS } from '../common/generation-paths.ts';
import { withGenerationField } from '../../../shared/generations.ts';
import { parseInput } from '../../../shared/contract/contract.ts';
import { isSha256Fingerprint, PanelError, readCertificateInfo, type CertificateInfo } from '../../../shared/contract/errors.ts';
import { fitPanelName, PANEL_NAME_MAX } from '../../../shared/labels.ts';
import { addPanelInputSchema, updatePanelInputSchema } from '../../../shared/schemas/schemas.ts';
import type { PanelSettings } from '../../../shared/types.ts';
import { normaliseAddress, normaliseApiPath, normaliseLoginPath } from '../common/address.ts';
import { withoutUndefined } from '../common/given.ts';

import type { RawEntry } from './import-reader.ts';

/**
 * One entry of an import, validated with the rules (and the messages) of Add panel and of the panel
 * settings: its address, and of its other settings (`PanelSettings`) only those the entry gives,
 * so an update leaves the others as they are.
 */
export type ImportSettings = { baseUrl: string; display: string; allowPlainHttp: boolean } & Partial<Omit<PanelSettings, 'allowPlainHttp'>>;

/** A valid entry's settings, or why it is not valid and what it says (for the preview). */
export type ValidatedEntry =
  /** `note`: what was changed to take the entry (a name shortened), for the preview. */
  | { line: number; settings: ImportSettings; note?: string }
  | { line: number; problem: string; written: { name: string | null; address: string } };

const pathSchema = updatePanelInputSchema.pick({
  generation: true,
  loginPath: true,
  sessionPath: true,
  tokenField: true,
  keepSignedIn: true,
});
/** The fields read with Add panel's rules, and those read with the panel settings' rules. */
const ADD_FIELDS = Object.keys(addPanelInputSchema.shape);
const PATH_FIELDS = Object.keys(pathSchema.shape);

/** Own fields only: a `__proto__` or `constructor` key in a file is just a key nobody reads. */
function given(fields: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of names) if (Object.hasOwn(fields, name) && fields[name] !== undefined) picked[name] = fields[name];
  return picked;
}

/** The name and address as written, shortened, for the preview of an entry that is not valid. */
function written(fields: Record<string, unknown>): { name: string | null; address: string } {
  const text = (key: string) => {
    const value = Object.hasOwn(fields, key) ? fields[key] : undefined;
    const shown = typeof value === 'string' ? value : value === undefined ? '' : (JSON.stringify(value) ?? '');
    return shown.length > 120 ? `${shown.slice(0, 120)}…` : shown;
  };
  return { name: text('name').trim() || null, address: text('address') };
}

/**
 * An invalid entry as it would be with unencrypted HTTP allowed, when that alone makes it valid
 * (a fresh Easypanel at http://<ip>:3000): the choice Add panel offers, offered per entry. Null
 * for an entry valid as it is, or invalid for another reason too.
 */
export function plainHttpVariant(raw: RawEntry, validated: ValidatedEntry): ValidatedEntry | null {
  if (!('problem' in validated) || raw.problem) return null;
  const allowed = validateEntry({ ...raw, fields: { ...raw.fields, allowPlainHttp: true } });
  return 'problem' in allowed ? null : allowed;
}

export function validateEntry({ line, fields, problem }: RawEntry): ValidatedEntry {
  if (problem) return { line, problem, written: written(fields) };
  try {
    // A name over the limit (older versions made such names, and exported them) is shortened, not refused.
    const name = Object.hasOwn(fields, 'name') ? fields.name : undefined;
    if (typeof name === 'string' && name.trim().length > PANEL_NAME_MAX) {
      const settings = importSettings({ ...fields, name: fitPanelName(name) });
      return { line, settings, note: `Its name was shortened to ${PANEL_NAME_MAX} characters.` };
    }
    return { line, settings: importSettings(fields) };
  } catch (error) {
    if (error instanceof PanelError) return { line, problem: error.message, written: written(fields) };
    throw error;
  }
}

function importSettings(entry: Record<string, unknown>): ImportSettings {
  // An export of format 1 (or a list written for one) names the generation the old way.
  const fields = withGenerationField(entry);
  const add = given(fields, ADD_FIELDS);
  if (add.address === undefined) throw new PanelError('INVALID_INPUT', 'Enter the panel address, for example panel.example.com.');
  const input = parseInput(addPanelInputSchema, add);
  const allowPlainHttp = input.allowPlainHttp ?? false;
  const { baseUrl, display } = normaliseAddress(input.address, { allowPlainHttp });

  const paths = parseInput(pathSchema, given(fields, PATH_FIELDS));
  const generation = paths.generation ?? 'public';
  const loginPath = paths.loginPath === undefined ? undefined : normaliseLoginPath(paths.loginPath, GENERATION_PATHS[generation].login);
  const sessionPath =
    paths.sessionPath === undefined ? undefined : normaliseApiPath(paths.sessionPath, 'session', GENERATION_PATHS[generation].session);
  const certificate = trustedCertificate(given(fields, ['trustedCertificate', 'trustedCertificateSha256']));

  // Every setting, undefined where the entry gives none: a new setting makes the compiler ask how it is imported.
  const settings: { [Field in keyof Required<ImportSettings>]: ImportSettings[Field] | undefined } = {
    baseUrl,
    display,
    allowPlainHttp,
    name: input.name || undefined,
    group: input.group,
    tags: input.tags,
    colour: input.colour,
    favourite: input.favourite,
    readOnly: input.readOnly,
    notes: input.notes,
    generation: paths.generation,
    loginPath,
    sessionPath,
    tokenField: paths.tokenField,
    keepSignedIn: paths.keepSignedIn,
    trustedCertificate: certificate,
  };
  return { ...withoutUndefined(settings), baseUrl, display, allowPlainHttp };
}

/** The full certificate of an export; the first exports' bare fingerprint is read too. */
function trustedCertificate(fields: Record<string, unknown>): CertificateInfo | null | undefined {
  const { trustedCertificate: full, trustedCertificateSha256: sha256 } = fields;
  if (full !== undefined) {
    if (full === null) return null;
    const read = readCertificateInfo(full);
    if (!read)
      throw new PanelError(
        'INVALID_INPUT',
        'Trusted certificate must have a SHA-256 fingerprint (32 hex pairs joined by colons), a subject, an issuer and validity dates.',
      );
    return read;
  }
  if (sha256 === undefined || sha256 === null) return sha256;
  if (!isSha256Fingerprint(sha256))
    throw new PanelError(
      'INVALID_INPUT',
      'The trusted certificate fingerprint must be a SHA-256 fingerprint (32 hex pairs joined by colons).',
    );
  return { sha256, subject: 'Not known (imported by fingerprint)', issuer: 'Not known', validFrom: '', validTo: '' };
}
