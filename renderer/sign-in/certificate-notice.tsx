import type { CertificateInfo, ErrorInfo } from '../../shared/contract/errors.ts';
import type { Panel } from '../../shared/types.ts';
import { useApi } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import { madeOnce } from '../../shared/made-once.ts';

const day = madeOnce(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }));

/** Whether an error is about a certificate the operator can decide to trust. */
export function isCertificateProblem(error: ErrorInfo | null): error is ErrorInfo & { certificate: CertificateInfo } {
  return (
    error !== null && (error.code === 'CERTIFICATE_UNTRUSTED' || error.code === 'CERTIFICATE_CHANGED') && error.certificate !== undefined
  );
}

interface CertificateNoticeProps {
  panel: Panel;
  error: ErrorInfo & { certificate: CertificateInfo };
  /** After the certificate is trusted: try again what failed. */
  onTrusted(panel: Panel): void;
}

/**
 * The certificate a panel presented and the system (or the operator's earlier trust) refused:
 * what to compare, and the choice to trust it for this panel only. A changed certificate is a
 * warning, not a routine prompt: it is how an interception looks.
 */
export function CertificateNotice({ panel, error, onTrusted }: CertificateNoticeProps) {
  const api = useApi();
  const { busy, error: failure, run } = useBusyAction();
  const changed = error.code === 'CERTIFICATE_CHANGED';
  const trust = () => run(async () => onTrusted(await api.trustCertificate(panel.id, { sha256: error.certificate.sha256 })));
  return (
    <div className={`notice ${changed ? 'notice-error' : 'notice-warning'} certificate-notice`} role="alert">
      <p className="notice-title">{changed ? 'The panel’s certificate changed' : 'Certificate not trusted'}</p>
      <p>{error.message}</p>
      <CertificateDetails certificate={error.certificate} title={changed ? 'The certificate presented now' : 'The certificate presented'} />
      {failure && <p className="field-error">{failure.message}</p>}
      <div className="form-actions">
        <button type="button" className={changed ? 'button-danger' : 'button-primary'} disabled={busy} onClick={() => void trust()}>
          {changed ? 'Trust the new certificate for this panel' : 'Trust this certificate for this panel'}
        </button>
      </div>
    </div>
  );
}

/** A certificate as the operator compares it with the panel's: the fingerprint first. */
export function CertificateDetails({ certificate, title }: { certificate: CertificateInfo; title: string }) {
  const expired = Date.parse(certificate.validTo) < Date.now();
  return (
    <dl className="certificate-details" aria-label={title}>
      <div>
        <dt>SHA-256 fingerprint</dt>
        <dd>
          <code className="fingerprint">{certificate.sha256}</code>
        </dd>
      </div>
      <div>
        <dt>Issued to</dt>
        <dd>{certificate.subject || '(no name)'}</dd>
      </div>
      <div>
        <dt>Issued by</dt>
        <dd>{certificate.subject === certificate.issuer ? 'Itself (self-signed)' : certificate.issuer || '(no name)'}</dd>
      </div>
      <div>
        <dt>Valid</dt>
        <dd>
          {formatDay(certificate.validFrom)} to {formatDay(certificate.validTo)}
          {expired && <strong> (expired)</strong>}
        </dd>
      </div>
    </dl>
  );
}

export function formatDay(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : day().format(new Date(time));
}
