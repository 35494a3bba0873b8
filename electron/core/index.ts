/**
 * The main process's logic, free of Electron: what the app wires up and what tests drive.
 * The one door into the core: electron/main imports from here only (tests/unit/layers.test.ts).
 */
export { createCore, type Core, type CoreOptions } from './wiring/create-core.ts';
export { ARGUMENTS_VALIDATED } from './context/core-context.ts';
/** The name scripts outside this repository start the core by: kept for them; inside, it is `createCore`. */
export { createCore as createPanelService } from './wiring/create-core.ts';
export type { Encryption } from './storage/token-vault.ts';
export type { FetchLike } from './net/http-client.ts';
export { type CertificateRejection, describeCertificate, judgeCertificate } from './net/certificate-trust.ts';
export { jsonFileStore, openJsonFiles, PRIVATE_FILE_MODE, type DocumentStore, type OpenStore } from './storage/document-store.ts';
export { normaliseAddress } from './common/address.ts';
export {
  CheckScheduler,
  type CheckSchedulerTiming,
  type SchedulerClock,
  type SystemEvent,
  type SystemState,
} from './schedule/check-scheduler.ts';
export { ExpiryWatcher, type ExpiryNotifier } from './schedule/expiry-watcher.ts';
export { DailyReads, type DailyReadsTiming } from './schedule/daily-reads.ts';
export { describeError, silentLog, type Log, type LogFields } from './log/log.ts';
export { createFileLog, type FileLog } from './log/file-log.ts';
