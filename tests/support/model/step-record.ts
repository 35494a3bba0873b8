import type { Model, PanelModel } from './model.ts';
import { systemTrusted, tlsServerAt, type Target, type World } from './world.ts';

/**
 * What a step did that the checks after it need: which panel each server's requests in the step
 * belong to, which certificates a password or token could rightly go to, which sign-ins ended.
 */

/** A log out or removal of a signed-in panel, as it returned. */
export interface EndedSignIn {
  panel: PanelModel;
  call: 'logOut' | 'remove';
  /** The tokens the core held for the panel before the step. */
  held: string[];
  /** How many requests each server and free port had received when the call returned. */
  after: { servers: number[]; free: number[] };
  /**
   * The server that must no longer accept the token: the panel's, when it was certainly reachable
   * with the token in the whole step (the certificate it presented passed the pin; nothing moved,
   * swapped, trusted or logged in meanwhile); null when not.
   */
  atPanel: number | null;
}

export interface StepRecord {
  /** `<target label>\0<password>`: another panel's password an address may receive in this step (see runGroup). */
  foreign: Set<string>;
  /** By TLS server: the fingerprints a password or token may go to in this step. */
  trusted: Map<number, Set<string>>;
  /** By server: the panel whose requests arrive there in this step (a server has at most one). */
  panelAt: Map<number, string>;
  /** Panels logged in in this step whose server certainly took their requests (see `EndedSignIn.atPanel`): by panel, that server. */
  loggingIn: Map<string, number>;
  /** Panels a log in in this step may have signed in: 'ok' for sure, 'maybe' when its write failed. */
  loggedIn: Map<string, 'ok' | 'maybe'>;
  ended: EndedSignIn[];
}

/** A step's record as the model stands before it: every panel's address and pin. */
export function recordBefore(world: World, model: Model): StepRecord {
  const record: StepRecord = {
    foreign: new Set(),
    trusted: new Map(),
    panelAt: new Map(),
    loggingIn: new Map(),
    loggedIn: new Map(),
    ended: [],
  };
  for (const panel of model.panels) notePanel(world, record, panel, panel.target, panel.pin);
  return record;
}

/** The panel's requests at `target` in this step, with `pin` trusted there (none when null). */
export function notePanel(world: World, record: StepRecord, panel: PanelModel, target: Target, pin: string | null): void {
  if (target.kind !== 'server') return;
  record.panelAt.set(target.index, panel.id);
  noteTrusted(world, record, target, pin);
}

/** `pin` trusted at `target` in this step (none: what the system trusts). */
export function noteTrusted(world: World, record: StepRecord, target: Target, pin: string | null): void {
  if (target.kind !== 'server' || !tlsServerAt(world, target)) return;
  const trusted = record.trusted.get(target.index) ?? new Set<string>();
  // With no pin, what the system trusts.
  for (const sha256 of pin === null ? systemTrusted(world).map((one) => one.sha256) : [pin]) trusted.add(sha256);
  record.trusted.set(target.index, trusted);
}
