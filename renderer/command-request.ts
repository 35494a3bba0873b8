import { useEffect, useRef } from 'react';
import type { CommandId } from '../shared/commands.ts';

/**
 * A command for a part of the window to carry out (the list: find, check all; the panel view:
 * refresh, log in, log out, settings, remove). `seq` grows with each request, so the same
 * command asked twice is carried out twice, and an old one is not carried out again on render.
 */
export interface CommandRequest {
  command: CommandId;
  seq: number;
}

/**
 * Carries out the requests for the commands in `handlers`, each once, and only those made since
 * this component appeared (a panel view shown later does not repeat an older Refresh).
 */
export function useCommandRequests(request: CommandRequest | null, handlers: Partial<Record<CommandId, () => void>>): void {
  const seen = useRef(request?.seq ?? 0);
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!request || request.seq <= seen.current) return;
    seen.current = request.seq;
    latest.current[request.command]?.();
  }, [request]);
}
