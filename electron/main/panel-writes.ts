import { type BrowserWindow, ipcMain, net, type Session, session } from 'electron';
import type { FetchLike } from '../core/index.ts';
import type { WritePlan } from '../../shared/write-plan.ts';
import { CONFIRMATION_PARTITION, openConfirmationWindow } from './confirmation-window.ts';
import { restrictPermissions } from './navigation-policy.ts';
import { netRequestFetch } from './net-request-fetch.ts';
import { type PanelCertificates, panelPartition } from './panel-certificates.ts';
import { APP_SCHEME } from './renderer-files.ts';
import { serveAppRequest } from './renderer-entry.ts';
import { createWriteConfirmation } from './write-confirmation.ts';
import { writeSessionsFetch } from './write-sessions.ts';

export interface PanelWritesDeps {
  certificates: PanelCertificates;
  rendererDir: string;
  /** The confirmation window's own preload (dist/preload/confirm-preload.cjs). */
  confirmPreloadPath: string;
  /** The confirmation page, on the app's origin. */
  confirmUrl: string;
  isPackaged: boolean;
  /** The panel window, which a confirmation is modal over. */
  mainWindow(): BrowserWindow | null;
}

/**
 * The Electron side of the one write path (issue 30): main's own confirmation (a window of its
 * own, in a session of its own that serves only the app's files and grants nothing), and the fetch
 * writes go through (a session a write at a time, its connections closed first). The sessions made
 * for writes are listed, so that a trust change closes their connections too.
 */
export function panelWrites({ certificates, rendererDir, confirmPreloadPath, confirmUrl, isPackaged, mainWindow }: PanelWritesDeps): {
  confirmWrite(plan: WritePlan): Promise<boolean>;
  writeFetch: FetchLike;
  writeSessions: readonly Session[];
} {
  const confirmSession = session.fromPartition(CONFIRMATION_PARTITION);
  restrictPermissions(confirmSession, []);
  confirmSession.protocol.handle(APP_SCHEME, (request) => serveAppRequest(rendererDir, request));
  const confirmation = createWriteConfirmation({
    ipc: ipcMain,
    openWindow: () => openConfirmationWindow({ parent: mainWindow(), preloadPath: confirmPreloadPath, url: confirmUrl, isPackaged }),
  });

  const writeSessions: Session[] = [];
  const sessionsFetch = writeSessionsFetch({
    open: (pin, slot) => {
      const writeSession = session.fromPartition(`${panelPartition(pin)}-write-${slot}`);
      // No page ever runs in it: nothing is granted.
      restrictPermissions(writeSession, []);
      const verify = certificates.verifierFor(pin);
      writeSession.setCertificateVerifyProc((request, callback) => callback(verify(request))); // eng-disable CERTIFICATE_VERIFY_PROC_JS_CHECK: the panels' write sessions, each judging with exactly one pinned SHA-256 (or none) beyond Chromium's verdict (PanelCertificates.verifierFor, tested)
      writeSessions.push(writeSession);
      return {
        fetch: netRequestFetch((options) => net.request({ ...options, session: writeSession })),
        closeAllConnections: () => writeSession.closeAllConnections(),
      };
    },
  });
  return { confirmWrite: confirmation.confirmWrite, writeFetch: certificates.wrap(() => sessionsFetch), writeSessions };
}
