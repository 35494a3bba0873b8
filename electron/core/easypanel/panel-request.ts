import type { Generation } from '../../../shared/types.ts';
import type { JsonShapeLimits } from '../common/json-shape.ts';
import type { CallKind } from './generation-wire.ts';

/** One request of the table (panel-requests.ts): how it travels in each generation, and what it does to the panel. */
export type PanelRequest = RequestRoute & RequestEffect;

/**
 * What it does to the panel. A read may be sent once more after a network failure or a 5xx
 * (`retry`); a write never is: the first may have been carried out, and a second deploy or stop is
 * not the operator's wish. A lost answer to a write leaves its outcome unknown.
 */
export type RequestEffect =
  /** `retry` false: a read whose failure costs nothing, not worth a second request (the version read beside a check). */
  { effect: 'read'; retry: boolean } | { effect: 'write' };

export interface RequestRoute {
  /** How the wire carries it: tRPC sends a query as a GET, a mutation as a POST. */
  kind: CallKind;
  /** What the request does, as messages say it ("reading the version"). */
  doing: string;
  /**
   * Its route in each generation. Several: the names it had across the generation's versions,
   * tried in order while the panel has none of them (404, 405); the first that answers is used.
   */
  routes: Readonly<Record<Generation, string | readonly string[]>>;
  /**
   * The generation whose envelope a generation's route speaks, where it is not the generation's own: 2.33's
   * GET cannot carry a number (`limit`), so such a read goes through the RPC layer a 2.33 panel
   * still answers (docs/easypanel-api.md).
   */
  via?: Partial<Readonly<Record<Generation, Generation>>>;
  /**
   * The fields its input may have, as the real catalogues list them (docs/easypanel-api.md): the
   * caller refuses to send any other, and a test checks these against the real lists. None: no input.
   */
  input?: readonly string[];
  /** How long each request may take, headers and body; null: the request timeout of the settings. */
  deadlineMs: number | null;
  /** Larger limits than a panel's usual answer (`RequestSettings.maxResponseBytes`, `PANEL_ANSWER_LIMITS`). */
  answerLimits?: { maxBytes: number; shape: JsonShapeLimits };
}
