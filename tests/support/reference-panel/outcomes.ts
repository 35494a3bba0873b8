import type { IncomingMessage } from 'node:http';
import type { ZodIssue } from './login-input.ts';
import type { PanelState } from './state.ts';
import type { ReferencePanelOptions, Route, Transport } from './types.ts';

/**
 * What every operation module of the reference panel shares: the shape of a table entry (a route
 * per generation), the outcome a route's module wraps in its generation's envelope, and which
 * entries a panel serves at its version.
 */

export interface Operation {
  route: Route;
  /** A query is read with GET in tRPC and the public API; a mutation is a POST. */
  kind: 'query' | 'mutation';
  /** tRPC's procedure (`/api/trpc/<name>`); null when tRPC has no such route. */
  trpc: string | null;
  /** The RPC layer's path (`/api/rpc/<name>`); null when it has none. */
  rpc: string | null;
  /** 2.33's flat name (`/api/<name>`); the log in's follows `ReferencePanelOptions.loginPath`. Null: none. */
  public: string | null;
  /** The Easypanel versions (`major.minor`, both ends included) that have these routes; default all. */
  versions?: { from?: string; until?: string };
}

/** The error codes the panel answers with: HTTP status, and tRPC's JSON-RPC number. */
export const ERROR_CODES = {
  BAD_REQUEST: { status: 400, jsonRpc: -32600 },
  UNAUTHORIZED: { status: 401, jsonRpc: -32001 },
  NOT_FOUND: { status: 404, jsonRpc: -32004 },
  METHOD_NOT_SUPPORTED: { status: 405, jsonRpc: -32005 },
  TOO_MANY_REQUESTS: { status: 429, jsonRpc: -32029 },
  INTERNAL_SERVER_ERROR: { status: 500, jsonRpc: -32603 },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface Failure {
  code: ErrorCode;
  message: string;
  /** Why the input was refused, as zod reports it. */
  issues?: readonly ZodIssue[];
  /** For TOO_MANY_REQUESTS: when to try again, epoch milliseconds. */
  reset?: number;
}

export type Outcome =
  /** `dates`: the top-level keys that hold dates, which tRPC and the RPC layer mark in `meta`. */
  | { kind: 'data'; data: unknown; dates: readonly string[] }
  | { kind: 'failure'; failure: Failure }
  /** An answer a test configured (`twoFactorPrompt`, `wrongCodeAnswer`): sent exactly as it is. */
  | { kind: 'as-is'; status: number; body: unknown };

export function fail(code: ErrorCode, message: string, extra: Omit<Failure, 'code' | 'message'> = {}): Outcome {
  return { kind: 'failure', failure: { code, message, ...extra } };
}

export const data = (value: unknown, dates: readonly string[] = []): Outcome => ({ kind: 'data', data: value, dates });

export interface CallContext {
  options: ReferencePanelOptions;
  state: PanelState;
  via: Transport;
  request: IncomingMessage;
}

/** `2.30.1` → 2030 (major × 1000 + minor), for comparing; null for a version that is not `x.y...`. */
function versionNumber(version: string | null): number | null {
  const match = /^(\d+)\.(\d+)/.exec(version ?? '');
  return match ? Number(match[1]) * 1000 + Number(match[2]) : null;
}

/** Whether a panel reporting `version` has the entry's routes (a version it cannot read has all). */
export function servedAtVersion(operation: Operation, version: string | null): boolean {
  const at = versionNumber(version);
  const from = versionNumber(operation.versions?.from ?? null);
  const until = versionNumber(operation.versions?.until ?? null);
  return at === null || ((from === null || at >= from) && (until === null || at <= until));
}

/**
 * The entries of `table` the panel answers by `via`, with their name on that route: those that
 * have one, at the panel's version, and that `ReferencePanelOptions.withoutOperations` leaves in.
 */
export function servedOperations(
  table: readonly Operation[],
  via: Transport,
  { options, state }: { options: ReferencePanelOptions; state: PanelState },
): { operation: Operation; name: string }[] {
  const withheld = new Set(options.withoutOperations ?? []);
  return table.flatMap((operation) => {
    const name = operation[via];
    const served = name !== null && !withheld.has(name) && servedAtVersion(operation, state.version());
    return served ? [{ operation, name }] : [];
  });
}
