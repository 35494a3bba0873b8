import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createPanelApi } from '../../shared/contract/bridge.ts';
import { EVENT_CHANNEL } from '../../shared/contract/events.ts';

// The page gets the contract's verb-named methods and events, nothing else: no ipcRenderer, no
// channel names, never Electron's event object (it would hand the page `sender`).
contextBridge.exposeInMainWorld(
  'panelApi',
  createPanelApi(
    (channel, ...args) => ipcRenderer.invoke(channel, ...args),
    (listener) => {
      const handler = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(EVENT_CHANNEL, handler);
      return () => {
        ipcRenderer.removeListener(EVENT_CHANNEL, handler);
      };
    },
  ),
);
