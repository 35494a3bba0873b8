import type { PanelApi } from './contract.ts';
import { isErrorCode, readCertificateInfo, type CertificateInfo, type ErrorCode, type ErrorInfo } from './errors.ts';
import { isPanelEvent, type PanelEvent } from './events.ts';
import { channelOf, methodNames, type MethodName } from './methods.ts';

/** Sends one call to main and resolves with main's raw answer (`ipcRenderer.invoke` in the app). */
export type Invoke = (channel: string, ...args: unknown[]) => Promise<unknown>;

/** Listens to main's event channel with the payload alone (never Electron's event); returns an unsubscribe. */
export type Subscribe = (listener: (payload: unknown) => void) => () => void;

/** `window.panelApi`: the contract's methods, and events from main. */
export interface PanelBridge extends PanelApi {
  /** Calls `listener` with each event main sends; the function it returns stops that. */
  onEvent(listener: (event: PanelEvent) => void): () => void;
}

/**
 * What a failed call rejects with. A plain object on purpose, not an `Error`: Electron's
 * contextBridge copies only an Error's message into the page, but copies a plain object whole,
 * so the renderer still gets the code it decides on (expired session, wrong password...).
 */
export interface PanelApiFailure extends ErrorInfo {
  readonly name: 'PanelApiFailure';
}

export function panelApiFailure(code: ErrorCode, message: string, certificate?: CertificateInfo): PanelApiFailure {
  const failure = certificate
    ? { name: 'PanelApiFailure' as const, code, message, certificate: Object.freeze(certificate) }
    : { name: 'PanelApiFailure' as const, code, message };
  return Object.freeze(failure);
}

export function isPanelApiFailure(value: unknown): value is PanelApiFailure {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return candidate.name === 'PanelApiFailure' && isErrorCode(candidate.code) && typeof candidate.message === 'string';
}

const MALFORMED_ANSWER = 'Paneldeck got an answer it did not understand from its own main process. Restart Paneldeck.';

/** The value of an `{ ok, value | error }` envelope, or a rejection with its `PanelApiFailure`. */
export function unwrapAnswer(answer: unknown): unknown {
  if (typeof answer === 'object' && answer !== null) {
    const envelope = answer as Record<string, unknown>;
    if (envelope.ok === true && 'value' in envelope) return envelope.value;
    const error = envelope.error as Record<string, unknown> | null | undefined;
    if (envelope.ok === false && isErrorCode(error?.code) && typeof error.message === 'string') {
      // A certificate that is not well-formed is left out: the message still says what happened.
      throw panelApiFailure(error.code, error.message, readCertificateInfo(error.certificate));
    }
  }
  throw panelApiFailure('INTERNAL', MALFORMED_ANSWER);
}

/**
 * The typed API the renderer sees as `window.panelApi`: one verb-named method per contract
 * method, each sending its arguments on its own channel. The preload passes `ipcRenderer.invoke`;
 * browser tests pass a Playwright binding. Nothing here can reach any other channel.
 */
export function createPanelApi(invoke: Invoke, subscribe: Subscribe): PanelBridge {
  const api: Partial<Record<MethodName | 'onEvent', (...args: never[]) => unknown>> = {};
  for (const method of methodNames) {
    const channel = channelOf(method);
    api[method] = async (...args: unknown[]) => unwrapAnswer(await invoke(channel, ...args));
  }
  api.onEvent = (listener: (event: PanelEvent) => void) => {
    if (typeof listener !== 'function') throw new TypeError('onEvent takes a function.');
    return subscribe((payload) => {
      if (isPanelEvent(payload)) listener(payload);
    });
  };
  // Every method is filled in above from the exhaustive list; the types of each are the contract's.
  return Object.freeze(api) as unknown as PanelBridge;
}
