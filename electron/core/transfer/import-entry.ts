import { STYLE_PATHS } from '../common/style-paths.ts';
import { parseInput } from '../../../shared/contract.ts';
import { isSha256Fingerprint, PanelError, readCertificateInfo, type CertificateInfo } from '../../../shared/errors.ts';
import type { PanelColour } from '../../../shared/labels.ts';
import { addPanelInputSchema, updatePanelInputSchema } from '../../../shared/schemas.ts';
import type { ApiStyle } from '../../../shared/types.ts';
import { normaliseAddress, normaliseApiPath, normaliseLoginPath } from '../common/address.ts';

import type { RawEntry } from './import-reader.ts';

/**
 * One entry of an import, checked with the rules (and the messages) of Add panel and of the panel
 * settings. Only the fields the entry gives are set: an update leaves the others as they are.
 */
export interface ImportSettings {
  baseUrl: string;
  display: string;
  allowPlainHttp: boolean;
  name?: string;
  group?: string | null;
  tags?: string[];
  colour?: PanelColour | null;
  favourite?: boolean;
  apiStyle?: ApiStyle;
  loginPath?: string;
  sessionPath?: string;
  tokenField?: string | null;
  trustedCertificate?: CertificateInfo | null;
}

/** A valid entry's settings, or why it is not valid and what it says (for the preview). */
export type CheckedEntry =
  | { line: number; settings: ImportSettings }
  | { line: number; problem: string; written: { name: string | null; address: string } };

const ADD_FIELDS = ['address', 'name', 'allowPlainHttp', 'group', 'tags', 'colour', 'favourite'] as const;
const PATH_FIELDS = ['apiStyle', 'loginPath', 'sessionPath', 'tokenField'] as const;
const pathSchema = updatePanelInputSchema.pick({ apiStyle: true, loginPath: true, sessionPath: true, tokenField: true });

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

export function checkEntry({ line, fields, problem }: RawEntry): CheckedEntry {
  if (problem) return { line, problem, written: written(fields) };
  try {
    return { line, settings: importSettings(fields) };
  } catch (error) {
    if (error instanceof PanelError) return { line, problem: error.message, written: written(fields) };
    throw error;
  }
}

function importSettings(fields: Record<string, unknown>): ImportSettings {
  const add = given(fields, ADD_FIELDS);
  if (add.address === undefined) throw new PanelError('INVALID_INPUT', 'Enter the panel address, for example panel.example.com.');
  const input = parseInput(addPanelInputSchema, add);
  const allowPlainHttp = input.allowPlainHttp ?? false;
  const { baseUrl, display } = normaliseAddress(input.address, { allowPlainHttp });
  const settings: ImportSettings = { baseUrl, display, allowPlainHttp };
  if (input.name) settings.name = input.name;
  if (input.group !== undefined) settings.group = input.group;
  if (input.tags !== undefined) settings.tags = input.tags;
  if (input.colour !== undefined) settings.colour = input.colour;
  if (input.favourite !== undefined) settings.favourite = input.favourite;

  const paths = parseInput(pathSchema, given(fields, PATH_FIELDS));
  const style = paths.apiStyle ?? 'plain';
  if (paths.apiStyle !== undefined) settings.apiStyle = paths.apiStyle;
  if (paths.loginPath !== undefined) settings.loginPath = normaliseLoginPath(paths.loginPath, STYLE_PATHS[style].login);
  if (paths.sessionPath !== undefined) settings.sessionPath = normaliseApiPath(paths.sessionPath, 'session', STYLE_PATHS[style].session);
  if (paths.tokenField !== undefined) settings.tokenField = paths.tokenField;

  const certificate = trustedCertificate(given(fields, ['trustedCertificate', 'trustedCertificateSha256']));
  if (certificate !== undefined) settings.trustedCertificate = certificate;
  return settings;
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
