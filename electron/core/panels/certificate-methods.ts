import { PanelError } from '../../../shared/contract/errors.ts';
import type { PanelChanges } from '../context/change-batchers.ts';
import {
  changingTrust,
  type CoreMethods,
  type FolderAccess,
  type PresentedCertificates,
  type TrustChanges,
} from '../context/core-context.ts';
import { toPanel } from '../storage/data-folder.ts';
import { find } from '../sign-in/session-reader.ts';

/** What the certificate methods use: the folder, the window's changes, the certificates panels presented, where a change of trust is told. */
export interface CertificateParts extends FolderAccess {
  changes: PanelChanges;
  presented: PresentedCertificates;
  trust: TrustChanges;
}

/** Certificates trusted on first use: pinning the one a panel presented, forgetting it, and the pins by host. */
export function certificateMethods({
  state,
  changes,
  presented,
  trust,
}: CertificateParts): CoreMethods<'trustCertificate' | 'forgetCertificate'> {
  return {
    trustCertificate(panelId, { sha256 }) {
      return changingTrust(trust, async () => {
        const current = await state();
        find(current, panelId);
        const seen = presented.get(panelId);
        if (!seen || seen.sha256 !== sha256) {
          throw new PanelError(
            'INVALID_INPUT',
            'This panel has not presented a certificate with that fingerprint since Paneldeck started, so it was not trusted. ' +
              'Connect to the panel again (Refresh, or Log in) to see the certificate it presents now.',
          );
        }
        const saving = current.registry.update(panelId, { trustedCertificate: seen });
        const answer = toPanel(find(current, panelId), current);
        await saving;
        presented.delete(panelId);
        changes.changed(panelId);
        return answer;
      });
    },

    forgetCertificate(panelId) {
      return changingTrust(trust, async () => {
        const current = await state();
        const record = find(current, panelId);
        const saving = record.trustedCertificate === null ? undefined : current.registry.update(panelId, { trustedCertificate: null });
        const answer = toPanel(find(current, panelId), current);
        await saving;
        changes.changed(panelId);
        return answer;
      });
    },
  };
}
