import { FLEET_FILE_FORMAT, FLEET_FILE_VERSION, type FleetDocument, type FleetFilePanel } from '../../shared/fleet-file.ts';

/** A panel of a fleet file with every field at its default: the name is the address's first label. */
export const fleetPanel = (address: string, change: Partial<FleetFilePanel> = {}): FleetFilePanel => ({
  address,
  name: address.split('.')[0]!,
  group: null,
  tags: [],
  colour: null,
  notes: '',
  generation: null,
  allowPlainHttp: false,
  certificateSha256: null,
  readOnly: false,
  ...change,
});

export const fleetOf = (...panels: FleetFilePanel[]): FleetDocument => ({
  format: FLEET_FILE_FORMAT,
  version: FLEET_FILE_VERSION,
  readOnly: false,
  panels,
});
