import type { CertificateInfo } from '../../../shared/contract/errors.ts';
import type { FleetFilePanel } from '../../../shared/fleet-file.ts';
import { normaliseAddress } from '../common/address.ts';
import type { PanelRecord, PanelRecordChange } from '../storage/panel-registry.ts';

/** A panel of the list and a panel of a fleet file, each as the other: the shared fields and what stays on one side. */

/** A record's shared fields as the file writes them; what only the file holds (a pin, a hand-set generation) kept from its base. */
export function filePanelOf(record: PanelRecord, base: FleetFilePanel | undefined, fileReadOnly: boolean): FleetFilePanel {
  return {
    address: normaliseAddress(record.baseUrl, { allowPlainHttp: record.allowPlainHttp }).display,
    name: record.name,
    group: record.group,
    tags: [...record.tags],
    colour: record.colour,
    notes: record.notes,
    generation: base?.generation ?? null,
    allowPlainHttp: record.allowPlainHttp,
    // The file's pin is the file's; a panel shared from here brings the one trusted here.
    certificateSha256: base ? base.certificateSha256 : (record.trustedCertificate?.sha256 ?? null),
    // A file read-only as a whole keeps each panel's own flag as the file has it.
    readOnly: fileReadOnly ? (base?.readOnly ?? false) : record.readOnly,
  };
}

/** What a file's panel sets on its record here: its shared fields; read-only when it or its whole file is. */
export function recordChangeOf(panel: FleetFilePanel, fileReadOnly: boolean): PanelRecordChange {
  return {
    name: panel.name,
    group: panel.group,
    tags: [...panel.tags],
    colour: panel.colour,
    allowPlainHttp: panel.allowPlainHttp,
    notes: panel.notes,
    readOnly: panel.readOnly || fileReadOnly,
    ...(panel.generation ? { generation: panel.generation } : {}),
  };
}

/** A pin known by its fingerprint alone, as an import of one is (`transfer/import-entry.ts`). */
export function pinnedByFingerprint(sha256: string): CertificateInfo {
  return { sha256, subject: 'Not known (pinned by its fleet file)', issuer: 'Not known', validFrom: '', validTo: '' };
}
