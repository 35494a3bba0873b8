import { useState } from 'react';
import { plural } from '../../shared/counts.ts';
import type { FleetLogInResult } from '../../shared/fleet-login.ts';
import type { Panel } from '../../shared/types.ts';
import { useApi, usePanelChanges } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import { failureInfo } from '../window/failure-info.ts';
import { formatDay, isCertificateProblem } from './certificate-notice.tsx';
import type { FleetCredentials } from './fleet-login-results.tsx';
import { retriedResult } from './fleet-login.ts';

/** A panel whose log in met a certificate nobody trusted yet, with what it presented. */
export type CertificateToReview = { result: FleetLogInResult; panel: Panel };

/** The results a review takes: certificates not trusted yet. A changed one stays a warning of its own, one at a time. */
export function certificatesToReview(results: readonly FleetLogInResult[], byId: ReadonlyMap<string, Panel>): CertificateToReview[] {
  return results.flatMap((result) => {
    const panel = byId.get(result.panelId);
    const error = 'error' in result ? result.error : null;
    return panel && result.outcome === 'needsCertificate' && isCertificateProblem(error) && error.code === 'CERTIFICATE_UNTRUSTED'
      ? [{ result, panel }]
      : [];
  });
}

interface CertificateReviewProps {
  items: readonly CertificateToReview[];
  credentials(panelId: string): FleetCredentials;
  /** Each panel's new outcome, once its certificate was trusted and its log in sent again. */
  onResults(next: readonly FleetLogInResult[]): void;
}

/**
 * The certificates a log in met, in one list to compare (panel, address, fingerprint, issuer,
 * valid dates); those selected are trusted in one step and their log ins sent again. Nothing is
 * trusted that is not on screen, and none is selected until the operator selects it.
 */
export function CertificateReview({ items, credentials, onResults }: CertificateReviewProps) {
  const api = useApi();
  const { changed } = usePanelChanges();
  const { busy, run } = useBusyAction();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const chosen = items.filter(({ panel }) => selected.has(panel.id));
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const trustChosen = () =>
    run(async () => {
      const next: FleetLogInResult[] = [];
      // One after another: a handful of panels, each a trust then a log in.
      for (const { panel, result } of chosen) {
        const error = 'error' in result && isCertificateProblem(result.error) ? result.error : null;
        if (!error) continue;
        try {
          changed([await api.trustCertificate(panel.id, { sha256: error.certificate.sha256 })]);
          const { email, password, rememberMe } = credentials(panel.id);
          changed([await api.logIn(panel.id, { email, password, rememberMe })]);
          next.push({ panelId: panel.id, outcome: 'signedIn' });
        } catch (caught) {
          next.push(retriedResult(result, failureInfo(caught)));
        }
      }
      setSelected(new Set());
      onResults(next);
    });
  const all = items.length > 0 && chosen.length === items.length;
  return (
    <section aria-labelledby="certificate-review-title" className="certificate-review">
      <h3 id="certificate-review-title">Certificates to review ({items.length.toLocaleString('en')})</h3>
      <p className="muted">
        These panels presented a certificate your system does not trust (self-signed, or a private authority). Compare each fingerprint with
        the panel's own, select those you trust, and their log ins are sent again.
      </p>
      <div className="certificate-review-scroll">
        <table className="certificate-review-table" aria-label="Certificates to review">
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label={`Select all ${items.length}`}
                  checked={all}
                  onChange={(event) => setSelected(new Set(event.target.checked ? items.map(({ panel }) => panel.id) : []))}
                />
              </th>
              <th scope="col">Panel</th>
              <th scope="col">SHA-256 fingerprint</th>
              <th scope="col">Issued by</th>
              <th scope="col">Valid</th>
            </tr>
          </thead>
          <tbody>
            {items.map(({ panel, result }) => {
              const certificate = 'error' in result && isCertificateProblem(result.error) ? result.error.certificate : null;
              if (!certificate) return null;
              const expired = Date.parse(certificate.validTo) < Date.now();
              return (
                <tr key={panel.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Trust the certificate of ${panel.name}`}
                      checked={selected.has(panel.id)}
                      onChange={(event) => toggle(panel.id, event.target.checked)}
                    />
                  </td>
                  <td>
                    <strong>{panel.name}</strong>
                    <span className="muted certificate-review-address">{panel.address}</span>
                  </td>
                  <td>
                    <code className="fingerprint">{certificate.sha256}</code>
                  </td>
                  <td>{certificate.subject === certificate.issuer ? 'Itself (self-signed)' : certificate.issuer || '(no name)'}</td>
                  <td>
                    {formatDay(certificate.validFrom)} to {formatDay(certificate.validTo)}
                    {expired && <strong> (expired)</strong>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="form-actions">
        <button type="button" className="button-primary" disabled={busy || chosen.length === 0} onClick={() => void trustChosen()}>
          {busy
            ? 'Trusting and logging in…'
            : chosen.length === 0
              ? 'Select the certificates to trust'
              : `Trust ${plural(chosen.length, 'certificate')} and log in`}
        </button>
      </div>
    </section>
  );
}
