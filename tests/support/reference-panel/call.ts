import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyFault, delay, type Fault } from './faults.ts';
import type { PanelState } from './state.ts';
import type { ReferencePanelOptions, Route } from './types.ts';

/** A request as the route modules see it, and what they share: the options, the state, the faults. */

export interface IncomingCall {
  request: IncomingMessage;
  response: ServerResponse;
  /** The path; `/api/v2/...` is read as `/api/...` (`moved`), the target of a same-origin redirect. */
  path: string;
  /** Came by `/api/v2/`: answered without faults, so that a redirect fault leads somewhere. */
  moved: boolean;
  body: string;
  search: URLSearchParams;
}

export interface PanelContext {
  options: ReferencePanelOptions;
  state: PanelState;
  faults: Map<Route, Fault>;
}

/** Applies the route's fault; true when the fault gave the answer (a latency only waits). */
export async function faulted(context: PanelContext, route: Route, call: IncomingCall): Promise<boolean> {
  const fault = call.moved ? undefined : context.faults.get(route);
  if (fault === undefined) return false;
  if (fault.kind === 'latency') {
    await delay(fault.ms, call.response);
    return false;
  }
  await applyFault(fault, call.response);
  return true;
}

/** Answers the call when it is on one of the module's paths; false when it is not. */
export type Answerer = (context: PanelContext, call: IncomingCall) => Promise<boolean>;
