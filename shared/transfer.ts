import type { PanelColour } from './labels.ts';
import type { ApiStyle, Panel } from './types.ts';

/**
 * The file Paneldeck exports panels to (and, later, imports from): what an operator typed and
 * chose for each panel, never a token, a password, an email or check history.
 *
 * ```json
 * { "format": "paneldeck.panels", "version": 1, "exportedAt": "2026-11-25T10:00:00.000Z",
 *   "panels": [{ "name": "Production", "address": "panel.example.com", "allowPlainHttp": false,
 *                "group": "Acme", "tags": ["eu"], "colour": "red", "favourite": true,
 *                "apiStyle": "plain", "loginPath": "/login", "sessionPath": "/getSession",
 *                "tokenField": null, "trustedCertificateSha256": null }] }
 * ```
 */
export const EXPORT_FORMAT = 'paneldeck.panels';
export const EXPORT_VERSION = 1;

export interface ExportedPanel {
  name: string;
  /** As the operator reads it (Unicode host, port when not the default). */
  address: string;
  allowPlainHttp: boolean;
  group: string | null;
  tags: string[];
  colour: PanelColour | null;
  favourite: boolean;
  apiStyle: ApiStyle;
  loginPath: string;
  sessionPath: string;
  tokenField: string | null;
  /** The certificate trusted for the panel (not a secret: its fingerprint); null for none. */
  trustedCertificateSha256: string | null;
}

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  panels: ExportedPanel[];
}

/** The export of `panels`, field by field: nothing is copied that is not named here. */
export function exportDocument(panels: readonly Panel[], exportedAt: Date): ExportDocument {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: exportedAt.toISOString(),
    panels: panels.map((panel) => ({
      name: panel.name,
      address: panel.address,
      allowPlainHttp: panel.allowPlainHttp,
      group: panel.group,
      tags: [...panel.tags],
      colour: panel.colour,
      favourite: panel.favourite,
      apiStyle: panel.apiStyle,
      loginPath: panel.loginPath,
      sessionPath: panel.sessionPath,
      tokenField: panel.tokenField,
      trustedCertificateSha256: panel.trustedCertificate?.sha256 ?? null,
    })),
  };
}

/** What an export did: `path` is null when the operator cancelled the save dialog. */
export interface ExportResult {
  path: string | null;
  count: number;
}
