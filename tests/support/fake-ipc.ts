import { registerPanelApi, type IpcCallEvent, type IpcHandlerRegistry, type RegistrarOptions } from '../../electron/main/ipc-registrar.ts';

/** The origin the app's page is served from, as main.ts gives it to the registrar. */
export const APP_ORIGIN = 'app://paneldeck';
/** A call from the app's own page: its top frame. */
export const APP_FRAME: IpcCallEvent = { senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: null } };

export type IpcListener = (event: IpcCallEvent, ...args: unknown[]) => Promise<unknown>;

/** An `ipcMain` stand-in that keeps the handlers so a test can call them as Electron would. */
export interface FakeIpc extends IpcHandlerRegistry {
  readonly handlers: ReadonlyMap<string, IpcListener>;
  /** A call from the app's own page. */
  call(channel: string, ...args: unknown[]): Promise<unknown>;
  /** A call from the sender `event` describes. Rejects, never throws, when nothing handles `channel`. */
  callFrom(event: IpcCallEvent, channel: string, ...args: unknown[]): Promise<unknown>;
}

export function fakeIpc(): FakeIpc {
  const handlers = new Map<string, IpcListener>();
  const callFrom: FakeIpc['callFrom'] = async (event, channel, ...args) => {
    const listener = handlers.get(channel);
    if (!listener) throw new Error(`no handler on ${channel}`);
    return listener(event, ...args);
  };
  return {
    handlers,
    handle: (channel, listener) => {
      // Electron's ipcMain refuses a second handler on a channel too.
      if (handlers.has(channel)) throw new Error(`${channel} registered twice`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => handlers.delete(channel),
    call: (channel, ...args) => callFrom(APP_FRAME, channel, ...args),
    callFrom,
  };
}

/** The registrar in front of `options.core`, on a fake IPC; the app's own origin unless told. */
export function registeredIpc(options: Omit<RegistrarOptions, 'ipc' | 'appOrigins'> & { appOrigins?: readonly string[] }): FakeIpc {
  const ipc = fakeIpc();
  registerPanelApi({ appOrigins: [APP_ORIGIN], ...options, ipc });
  return ipc;
}
