import { type CertificateRejection, type Core, describeCertificate, judgeCertificate, type FetchLike } from '../core/index.ts';

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

/** Chromium's verify proc for one partition. */
export type VerifyProc = (request: CertificateVerifyRequestLike) => VerifyAnswer;

/**
 * The partition (network session) a panel request goes through: one for panels that pin no
 * certificate, and one per pinned certificate. Chromium's verify proc is told the host name only
 * (not the port or the panel) and the network service caches its verdicts, so a pin must never be
 * judged in a session other panels use: each partition judges with exactly one pin (or none), and
 * a changed pin moves its panel to another partition, where no verdict of the old pin is cached.
 */
export function panelPartition(trustedCertificate: string | null): string {
  return trustedCertificate === null ? 'paneldeck-panels' : `paneldeck-pin-${trustedCertificate.replaceAll(':', '').toLowerCase()}`;
}

/** Refusals kept per partition and host: enough to tell one refused certificate from several. */
const REFUSALS_KEPT = 8;

interface Refusal {
  at: number;
  rejection: CertificateRejection;
}

/**
 * Trust on first use in the app, where Chromium makes the connections. Each partition's verify
 * proc (`verifierFor`) judges every certificate with its own pin. A refusal is remembered by
 * partition and host, so that the request's network error can be turned back into the
 * certificate the operator is asked about, when it can only be that one.
 */
export class PanelCertificates {
  readonly #refusals = new Map<string, Refusal[]>();
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** The verify proc of the partition of `pin` (`panelPartition(pin)`). */
  verifierFor(pin: string | null): VerifyProc {
    const partition = panelPartition(pin);
    return (request) => {
      let rejection: CertificateRejection | null;
      try {
        const presented = {
          certificate: describeCertificate(request.certificate.data),
          systemTrusted: request.verificationResult === 'net::OK',
          systemReason: request.verificationResult === 'net::OK' ? null : request.verificationResult,
        };
        rejection = judgeCertificate(presented, pin);
      } catch {
        // A certificate that cannot be read is left to Chromium, which refuses what it cannot verify.
        return -3;
      }
      const key = refusalKey(partition, request.hostname);
      if (rejection) {
        const kept = this.#refusals.get(key) ?? [];
        kept.push({ at: this.#now(), rejection });
        this.#refusals.set(key, kept.slice(-REFUSALS_KEPT));
        return -2;
      }
      this.#refusals.delete(key);
      // Trusted by the operator: accepted; trusted by the system: Chromium's verdict stands.
      return request.verificationResult === 'net::OK' ? -3 : 0;
    };
  }

  /**
   * A fetch that sends each request through its pin's partition (`fetchFor`), and whose failures
   * after a refused certificate carry the refusal (with the certificate), as the core's Node fetch
   * does, instead of Chromium's bare `net::ERR_…`. Only a refusal in the request's own partition,
   * for its host, during the request, and only when every such refusal names the same certificate:
   * two panels on one host refused with different certificates must not be told each other's.
   */
  wrap(fetchFor: (pin: string | null) => FetchLike): FetchLike {
    return async (url, init, tls) => {
      const pin = tls?.trustedCertificate ?? null;
      const started = this.#now();
      try {
        return await fetchFor(pin)(url, init, tls);
      } catch (error) {
        const hostname = hostOf(url);
        const during =
          hostname === null ? [] : (this.#refusals.get(refusalKey(panelPartition(pin), hostname)) ?? []).filter((one) => one.at >= started);
        const seen = new Set(during.map((one) => one.rejection.presented.certificate.sha256));
        if (seen.size === 1) throw new Error('The certificate was refused.', { cause: during.at(-1)!.rejection });
        throw error;
      }
    };
  }
}

function refusalKey(partition: string, hostname: string): string {
  return `${partition} ${hostname}`;
}

/** The host name as Chromium gives it to the verify proc: no brackets around IPv6. */
function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return null;
  }
}

/** The part of Electron's `Session` closed here. */
export interface ConnectionsHolder {
  closeAllConnections(): Promise<void>;
}

/**
 * A changed trust must be judged again: after each call that can change which certificate a panel
 * accepts (the core tells of it, `onTrustChanged`), the connections of the panels' sessions made
 * under the old trust are closed. Returns the unsubscribe.
 */
export function closeConnectionsOnTrustChange(core: Pick<Core, 'onTrustChanged'>, sessions: () => Iterable<ConnectionsHolder>): () => void {
  return core.onTrustChanged(() => {
    for (const panelSession of sessions()) void panelSession.closeAllConnections();
  });
}
