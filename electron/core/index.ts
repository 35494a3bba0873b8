/**
 * The main process's logic, free of Electron: what the app wires up and what tests drive.
 * The one door into the core: electron/main imports from here only (tests/unit/layers.test.ts).
 */
export { createPanelService, type PanelService, type PanelServiceOptions } from './service/panel-service.ts';
export type { Encryption } from './storage/token-vault.ts';
export type { FetchLike } from './http/http-client.ts';
export { type CertificateRejection, describeCertificate, judgeCertificate } from './http/certificate-trust.ts';
export { jsonFileStore, openJsonFiles, PRIVATE_FILE_MODE, type DocumentStore, type OpenStore } from './storage/document-store.ts';
export { normaliseAddress } from './common/address.ts';
export {
  CheckScheduler,
  type CheckSchedulerTiming,
  type SchedulerClock,
  type SystemEvent,
  type SystemState,
} from './background/check-scheduler.ts';
export { ExpiryWatcher, type ExpiryNotifier } from './background/expiry-watcher.ts';
export { describeError, silentLog, type Log, type LogFields } from './log/log.ts';
export { createFileLog, type FileLog } from './log/file-log.ts';
