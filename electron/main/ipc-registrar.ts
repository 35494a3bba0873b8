import { parseArguments, type MethodResult, type PanelApi, type ParsedArgs } from '../../shared/contract/contract.ts';
import { PanelError } from '../../shared/contract/errors.ts';
import { settle } from '../../shared/contract/envelope.ts';
import { channelOf, methodNames, type MethodName } from '../../shared/contract/methods.ts';
import { ARGUMENTS_VALIDATED, describeError, silentLog, type Log } from '../core/index.ts';

/** The frame a call came from, as Electron's `WebFrameMain` describes it. */
export interface SenderFrame {
  readonly url: string;
  readonly parent: SenderFrame | null;
}

/** The part of `IpcMainInvokeEvent` the registrar reads. */
export interface IpcCallEvent {
  readonly senderFrame: SenderFrame | null;
}

/** The part of `ipcMain` the registrar uses. */
export interface IpcHandlerRegistry {
  handle(channel: string, listener: (event: IpcCallEvent, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface RegistrarOptions {
  ipc: IpcHandlerRegistry;
  /** The core (which validates its own arguments, `ARGUMENTS_VALIDATED`), or any other implementation of the contract (a test's), whose arguments the registrar validates. */
  core: PanelApi & { readonly [ARGUMENTS_VALIDATED]?: true };
  /** Origins (`scheme://host[:port]`) the app's own page is served from. */
  appOrigins: readonly string[];
  /** Gets one `ipc.call` entry per call (method, time taken, outcome), never arguments or results. */
  log?: Log;
}

const FOREIGN_SENDER = 'Refused: this request did not come from Paneldeck\u2019s own window.';

/**
 * Registers every method of the contract, and nothing else. Each call is checked before the
 * core runs: the sender must be the top frame of the app's own page, the arguments must fit
 * the contract's schemas. The core validates its arguments itself, at its edge, for every caller
 * (`ARGUMENTS_VALIDATED`): they are then parsed once, there, not here a second time; any other
 * implementation's are parsed here. Every answer is an envelope, failures included. Returns an unregister.
 */
export function registerPanelApi({ ipc, core, appOrigins, log = silentLog }: RegistrarOptions): () => void {
  const validatesItsArguments = core[ARGUMENTS_VALIDATED] === true;
  for (const method of methodNames) {
    ipc.handle(channelOf(method), async (event, ...args) => {
      const started = performance.now();
      const answer = await settle(async () => {
        if (!isAppMainFrame(event.senderFrame, appOrigins)) throw new PanelError('FORBIDDEN', FOREIGN_SENDER);
        try {
          return await callCore(core, method, validatesItsArguments ? args : parseArguments(method, args));
        } catch (error) {
          if (!(error instanceof PanelError)) reportBug(log, method, error);
          throw error;
        }
      });
      // The outcome is the error code alone: a message may quote what the panel said.
      const outcome = answer.ok ? 'ok' : answer.error.code;
      const fields = { method, ms: Math.round(performance.now() - started), outcome };
      if (outcome === 'FORBIDDEN') log.warn('ipc.call', fields);
      else log.info('ipc.call', fields);
      return answer;
    });
  }
  return () => {
    for (const method of methodNames) ipc.removeHandler(channelOf(method));
  };
}

/** The app's page itself: a top frame (no iframe) whose URL is on one of the app's origins. */
export function isAppMainFrame(frame: SenderFrame | null, appOrigins: readonly string[]): boolean {
  if (!frame || frame.parent !== null) return false;
  let url: URL;
  try {
    url = new URL(frame.url);
  } catch {
    return false;
  }
  // `URL.origin` is "null" for custom schemes such as app://, so compare scheme and host instead.
  return appOrigins.includes(`${url.protocol}//${url.host}`);
}

/**
 * A bug reaches the renderer as a generic INTERNAL; its trace goes to main's console and the log
 * so it can be found. Only the error's type and stack frames: its message might hold anything.
 */
function reportBug(log: Log, method: MethodName, error: unknown): void {
  const { type, stack } = describeError(error);
  console.error([`Paneldeck bug in ${method}: ${type}`, ...stack.map((frame) => `    ${frame}`)].join('\n'));
  log.error('ipc.bug', { method, type, stack });
}

function callCore<M extends MethodName>(core: PanelApi, method: M, args: ParsedArgs<M> | unknown[]): Promise<MethodResult<M>> {
  // The tuple is the method's parameter list (parsed here, or checked by the core); TypeScript cannot see through the index.
  const handler = core[method] as unknown as (...values: unknown[]) => Promise<MethodResult<M>>;
  return handler.apply(core, args as unknown as unknown[]);
}
