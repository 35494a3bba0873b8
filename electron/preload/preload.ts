import { contextBridge, ipcRenderer } from 'electron';
import { createPanelApi } from '../../shared/bridge.ts';

// The page gets the contract's verb-named methods and nothing else: no ipcRenderer, no channel names.
contextBridge.exposeInMainWorld(
  'panelApi',
  createPanelApi((channel, ...args) => ipcRenderer.invoke(channel, ...args)),
);
