/** The main process's logic, free of Electron: what the app wires up and what tests drive. */
export { createPanelService, type PanelService, type PanelServiceOptions } from './panel-service.ts';
export type { Encryption } from './token-vault.ts';
export type { FetchLike } from './http-client.ts';
export { jsonFileStore, type DocumentStore, type OpenStore } from './document-store.ts';
export { normaliseAddress } from './address.ts';
