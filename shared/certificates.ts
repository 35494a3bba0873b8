import { compareText } from './text-compare.ts';
/**
 * The certificates of the websites the fleet serves (`listCertificates`): one row per domain of
 * every app service of every signed-in panel, each certificate as a TLS handshake with the domain
 * got it (what a visitor's browser gets), read in main.
 */

/** One domain's certificate. */
export interface CertificateRow {
  panelId: string;
  projectName: string;
  serviceName: string;
  /** The domain; empty when the row says why the panel's or the service's domains could not be read. */
  host: string;
  /** When the certificate ends (ISO 8601); null when none was read. */
  validTo: string | null;
  /** Whole days from the read to `validTo`, below 0 once it ended; null when none was read. */
  daysLeft: number | null;
  /** What is wrong, in words (a name it is not valid for, an untrusted issuer, no answer); null when nothing is. */
  problem: string | null;
}

/**
 * What one certificates read tells main's alerts (not sent to the window): the panels whose services
 * were read, the services ("project/service") whose domains could not be, and each domain whose
 * certificate a handshake was tried for.
 */
export interface CertificatesRead {
  readPanels: readonly string[];
  unreadServices: readonly { panelId: string; service: string }[];
  probed: readonly CertificateRow[];
}

/** How long a read of the certificates is kept before `listCertificates` reads them again by itself. */
export const CERTIFICATES_KEPT_MS = 24 * 60 * 60 * 1000;

/** The rows in the order the view shows them: problems first, then the fewest days left, then by panel, service and host. */
export function byDaysLeft(rows: readonly CertificateRow[]): CertificateRow[] {
  const rank = (row: CertificateRow) => (row.problem !== null ? Number.NEGATIVE_INFINITY : (row.daysLeft ?? Number.POSITIVE_INFINITY));
  return [...rows].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (a.daysLeft ?? 0) - (b.daysLeft ?? 0) ||
      // Ids only keep a panel's rows together: plain order, not a collator's (a hundred thousand comparisons over ten thousand rows).
      (a.panelId < b.panelId ? -1 : a.panelId > b.panelId ? 1 : 0) ||
      compareText(a.projectName, b.projectName) ||
      compareText(a.serviceName, b.serviceName) ||
      compareText(a.host, b.host),
  );
}
