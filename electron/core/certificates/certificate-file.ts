import type { CertificateRow } from '../../../shared/certificates.ts';
import { isRecord, isTextUpTo } from '../common/guards.ts';
import type { DocumentStore } from '../storage/document-store.ts';
import { KeptFile } from '../storage/kept-file.ts';

/**
 * The last certificates read as `certificates.json` keeps it (`storage/kept-file.ts`): a start
 * shows it at once and does not open a connection to every website again before a day has passed.
 * Every field checked when read back.
 */

/** A host is at most 253 (DNS); names and problems are the panel's or Paneldeck's short words. */
const TEXT_MAX = 300;

const isText = (value: unknown, max = TEXT_MAX): value is string => isTextUpTo(value, max);

function readRow(value: unknown): CertificateRow | null {
  if (!isRecord(value)) return null;
  const { panelId, projectName, serviceName, host, validTo, daysLeft, problem } = value;
  if (!isText(panelId, 100) || !isText(projectName) || !isText(serviceName) || !isText(host)) return null;
  if (validTo !== null && !(isText(validTo, 64) && Number.isFinite(Date.parse(validTo)))) return null;
  if (daysLeft !== null && !Number.isSafeInteger(daysLeft)) return null;
  if (problem !== null && !isText(problem, 1000)) return null;
  return { panelId, projectName, serviceName, host, validTo, daysLeft: daysLeft as number | null, problem };
}

export const certificateFile = (open: () => DocumentStore): KeptFile<CertificateRow> =>
  new KeptFile({ open, field: 'rows', readEntry: readRow });
