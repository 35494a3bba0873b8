import type { PlannedSignIn } from '../writes/held-sign-in.ts';
import type { Generation, OperationAnswer, OperationCall } from '../../../shared/operations-console.ts';
import type { WritePlan } from '../../../shared/write-plan.ts';
import type { CatalogueEntry } from '../easypanel/operation-catalogue.ts';
import type { SignedIn } from '../sign-in/with-token.ts';

/** An operation of one panel as it will be called: its catalogue entry, its input validated, the request as it will leave. */
export interface PreparedCall {
  panelId: string;
  held: SignedIn;
  generation: Generation;
  operation: CatalogueEntry;
  input: unknown;
  /** Exactly what is sent, as a plan shows it ("POST /api/createProject"). */
  request: string;
  /** A write's: the sign-in it is planned under (the panel's account for writes); null for a read, sent as the panel's own sign-in. */
  signIn: PlannedSignIn | null;
}

/** The console's two steps of a call, shared by one call and a run across panels (operation-console.ts). */
export interface ConsoleCalls {
  /** The operation found in the panel's catalogue, its input validated: nothing sent yet (a catalogue read aside). */
  prepare(panelId: string, call: OperationCall): Promise<PreparedCall>;
  /** Sends a prepared call (a write only once confirmed, and only while the panel is signed in as planned). */
  send(prepared: PreparedCall, signal?: AbortSignal): Promise<OperationAnswer>;
  /** The plan of the writes among prepared calls; `several` is typed when several production panels are among them. */
  plan(prepared: readonly PreparedCall[], several: string): WritePlan;
}
