/*
 * The window store is split by subject (window-stores.ts). This door stays only for
 * renderer/services/all-services-rows.ts, which another change is rewriting at the same time: its
 * import moves to service-action-store.ts once both are merged, and this file goes.
 */
export { serviceActionKey } from './service-action-store.ts';
