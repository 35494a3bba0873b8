import { type CertificateRejection, describeCertificate, judgeCertificate, type FetchLike } from '../core/index.ts';
import type { PanelApi } from '../../shared/contract.ts';

/** The part of Electron's certificate verify request read here. */
export interface CertificateVerifyRequestLike {
  hostname: string;
  /** PEM. */
  certificate: { data: string };
  /** Chromium's own verdict: `net::OK`, or why not (`net::ERR_CERT_AUTHORITY_INVALID`...). */
  verificationResult: string;
}

/** What the verify proc answers: 0 accepts, -2 refuses, -3 keeps Chromium's own verdict. */
export type VerifyAnswer = 0 | -2 | -3;

/**
 * Trust on first use in the app, where Chromium makes the connections. The panel requests' own
 * session asks `verify` for every certificate (`setCertificateVerifyProc`), which answers from
 * the certificates trusted for panels on that host (Chromium names the host, not the port or the
 * panel). A refusal is remembered by host, so that the request's network error can be turned
 * back into the certificate the operator is asked about.
 */
export class PanelCertificates {
  readonly #trustedFor: (hostname: string) => string[];
  readonly #rejections = new Map<string, { at: number; rejection: CertificateRejection }>();
  readonly #now: () => number;

  constructor(trustedFor: (hostname: string) => string[], now: () => number = () => performance.now()) {
    this.#trustedFor = trustedFor;
    this.#now = now;
  }

  verify(request: CertificateVerifyRequestLike): VerifyAnswer {
    let rejection: CertificateRejection | null;
    try {
      const presented = {
        certificate: describeCertificate(request.certificate.data),
        systemTrusted: request.verificationResult === 'net::OK',
        systemReason: request.verificationResult === 'net::OK' ? null : request.verificationResult,
      };
      const trusted = this.#trustedFor(request.hostname);
      // Any of the host's trusted certificates: panels on other ports of the host may differ.
      const match = trusted.find((sha256) => sha256 === presented.certificate.sha256);
      rejection = judgeCertificate(presented, match ?? trusted[0] ?? null);
    } catch {
      // A certificate that cannot be read is left to Chromium, which refuses what it cannot verify.
      return -3;
    }
    if (rejection) {
      this.#rejections.set(request.hostname, { at: this.#now(), rejection });
      return -2;
    }
    this.#rejections.delete(request.hostname);
    // Trusted by the operator: accepted; trusted by the system: Chromium's verdict stands.
    return request.verificationResult === 'net::OK' ? -3 : 0;
  }

  /**
   * `fetch` whose failures after a refused certificate carry the refusal (with the certificate),
   * as the core's Node fetch does, instead of Chromium's bare `net::ERR_…`.
   */
  wrap(fetch: FetchLike): FetchLike {
    return async (url, init, tls) => {
      const started = this.#now();
      try {
        return await fetch(url, init, tls);
      } catch (error) {
        const hostname = hostOf(url);
        const refused = hostname === null ? undefined : this.#rejections.get(hostname);
        if (refused && refused.at >= started) throw new Error('The certificate was refused.', { cause: refused.rejection });
        throw error;
      }
    };
  }
}

/** The host name as Chromium gives it to the verify proc: no brackets around IPv6. */
function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return null;
  }
}

/** `service` with `reset` called after each call that changes which certificate a panel accepts. */
export function withConnectionsReset<S extends PanelApi>(service: S, reset: () => void): S {
  const after =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } finally {
        reset();
      }
    };
  return {
    ...service,
    trustCertificate: after(service.trustCertificate.bind(service)),
    forgetCertificate: after(service.forgetCertificate.bind(service)),
    updatePanel: after(service.updatePanel.bind(service)),
    // An import may trust or change certificates; a removal takes a panel's trust away.
    applyImport: after(service.applyImport.bind(service)),
    removePanel: after(service.removePanel.bind(service)),
    removePanels: after(service.removePanels.bind(service)),
  };
}
