/**
 * What a panel's own catalogue says of the features Paneldeck builds on (`getPanelFeatures`):
 * each found by a short list of candidate operation names in the panel's `openapi.json`, and the
 * requests Paneldeck sends that the catalogue lacks or lists another way (drift between Easypanel
 * versions). docs/easypanel-api.md lists what each feature relies on.
 */
export type FeatureId = 'updates' | 'databaseBackups' | 'volumeBackups' | 'domains' | 'deployments' | 'cancelDeploy' | 'serviceActions';

export interface FeatureState {
  id: FeatureId;
  /** As "this panel's Easypanel has no …" says it ("database backups"). */
  label: string;
  available: boolean;
  /** The operation names found for it (one per part it needs), or the parts none of whose names the catalogue lists. */
  operations: string[];
  missing: string[];
}

/** A request Paneldeck sends that the panel's catalogue does not list as expected. */
export interface DriftLine {
  /** What the request does, in the operator's words ("reading which services run"). */
  doing: string;
  /** The names Paneldeck would send it by in this generation. */
  names: string[];
  /** `missing`: none of them is listed; `kind`: listed as a read where Paneldeck sends a write, or the other way. */
  problem: 'missing' | 'kind';
}

export interface PanelFeatures {
  panelId: string;
  /** The Easypanel version the catalogue is of, when known. */
  version: string | null;
  readAt: string;
  features: FeatureState[];
  drift: DriftLine[];
}

/** What the window says of a missing feature. */
export function missingFeatureText(feature: Pick<FeatureState, 'label'>): string {
  return `This panel's Easypanel has no ${feature.label}.`;
}
