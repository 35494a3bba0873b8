import { settle } from '../../../shared/contract/envelope.ts';
import { isRecord } from '../../../shared/guards.ts';
import { CERTIFICATES_KEPT_MS, type CertificateRow, type CertificatesRead } from '../../../shared/certificates.ts';
import type { CoreMethods } from '../context/core-context.ts';
import type { DataFolder } from '../storage/data-folder.ts';
import type { KeptFile } from '../storage/kept-file.ts';
import { callPanel } from '../easypanel/panel-calls.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { KeptPass } from '../schedule/kept-pass.ts';
import { WorkPool } from '../schedule/work-pool.ts';
import { type TokenCalls, withToken } from '../sign-in/with-token.ts';
import { type ProbedCertificate, probeCertificate, type ResolveDomain } from './certificate-probe.ts';

/**
 * The fleet's Certificates view (`listCertificates`): every domain of every app service of every
 * signed-in panel, each with its certificate as a handshake with the domain got it. Three bounded
 * steps, each at most `concurrency()` at a time (the checks' setting): each panel's services, each
 * app's settings (its domains), then each host once. The rows are kept (in `certificates.json` too) and read again
 * only once a day has passed, or when the operator asks (`refresh`): a pass opens a connection to
 * every website of the fleet.
 */

/** What the certificate list uses: the calls with each panel's token, the request settings, the clock, the bound, the way to a domain. */
export interface CertificateListParts extends TokenCalls {
  request: RequestSettings;
  now(): Date;
  concurrency(): number;
  resolveDomain: ResolveDomain;
  /** Where the last read is kept across restarts. */
  store: Pick<KeptFile<CertificateRow>, 'load' | 'save'>;
  /** Hears each read: the alerts of the domains' certificates are raised and resolved from it. */
  certificatesRead?(state: DataFolder, read: CertificatesRead): void;
}

/** Most settings reads in flight on one panel: its other work keeps room. */
const INSPECTS_PER_PANEL = 4;
/** Longest a handshake may take, whatever the request timeout: a website is not a panel. */
const PROBE_TIMEOUT_MS = 10_000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** What a panel may call a host: a name of letters, digits, dots and dashes (no wildcard, no port), as DNS allows. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/**
 * Whole days left, as an operator counts them: 4 for 4.9 days; once ended, the days since, at
 * least 1 (-1 for an hour ago, never a "0 days left" that ended).
 */
export function wholeDays(ms: number): number {
  return ms >= 0 ? Math.floor(ms / DAY_MS) : Math.min(-1, Math.trunc(ms / DAY_MS));
}

interface AppService {
  panelId: string;
  projectName: string;
  serviceName: string;
}

/** One domain as an app's settings hold it. */
interface Domain {
  host: string;
  https: boolean;
}

/** A row before its certificate is read: its domain, or already its problem (`domainsRead` false: the service's domains are not known). */
type Planned = { row: CertificateRow; probe: boolean; domainsRead: boolean };

const unread = (service: AppService, problem: string): Planned => ({
  row: emptyRow(service, '', problem),
  probe: false,
  domainsRead: false,
});

const emptyRow = (service: AppService, host: string, problem: string | null): CertificateRow => ({
  ...service,
  host,
  validTo: null,
  daysLeft: null,
  problem,
});

/** The app services of a `listProjectsAndServices` answer. */
function appsOf(panelId: string, listed: unknown): AppService[] {
  const services = isRecord(listed) && Array.isArray(listed.services) ? listed.services : [];
  return services.flatMap((service) =>
    isRecord(service) && service.type === 'app' && typeof service.projectName === 'string' && typeof service.name === 'string'
      ? [{ panelId, projectName: service.projectName, serviceName: service.name }]
      : [],
  );
}

/** The domains of an app's settings (`inspectAppService` → `domains: [{host, https, port, path}]`), each host once. */
export function domainsOf(settings: unknown): Domain[] {
  const listed = isRecord(settings) && Array.isArray(settings.domains) ? settings.domains : [];
  const byHost = new Map<string, Domain>();
  for (const domain of listed) {
    if (!isRecord(domain) || typeof domain.host !== 'string') continue;
    const host = domain.host.trim().toLowerCase().slice(0, 300);
    // One host served on two paths is one certificate; https on either is what a visitor reaches.
    const https = domain.https !== false || byHost.get(host)?.https === true;
    if (host !== '') byHost.set(host, { host, https });
  }
  return [...byHost.values()];
}

export function certificateListMethods(parts: CertificateListParts): CoreMethods<'listCertificates'> {
  const { request, now, concurrency, resolveDomain } = parts;

  /** The panel's app services; or one row saying why they could not be read. */
  async function appServices(panelId: string, signal: AbortSignal): Promise<AppService[] | CertificateRow> {
    const answer = await settle(() =>
      withToken(
        parts,
        panelId,
        async ({ record, token }, whileSignedIn) =>
          appsOf(panelId, await callPanel(request, record, token, 'listProjectsAndServices', undefined, { signal: whileSignedIn })),
        signal,
      ),
    );
    if (answer.ok) return answer.value;
    return emptyRow({ panelId, projectName: '', serviceName: '' }, '', `Its services could not be read: ${answer.error.message}`);
  }

  /** An app's rows: one per domain, to be probed; or one saying why its domains could not be read. */
  async function serviceRows(service: AppService, signal: AbortSignal): Promise<Planned[]> {
    const { panelId, projectName, serviceName } = service;
    const answer = await settle(() =>
      withToken(
        parts,
        panelId,
        async ({ record, token }, whileSignedIn) =>
          domainsOf(await callPanel(request, record, token, 'inspectAppService', { projectName, serviceName }, { signal: whileSignedIn })),
        signal,
      ),
    );
    if (!answer.ok) return [unread(service, `Its domains could not be read: ${answer.error.message}`)];
    return answer.value.map(({ host, https }): Planned => {
      if (!HOST_NAME.test(host))
        return { row: emptyRow(service, host.slice(0, 253), 'Not a host name a handshake can reach'), probe: false, domainsRead: true };
      if (!https) return { row: emptyRow(service, host, 'Served without HTTPS: no certificate'), probe: false, domainsRead: true };
      return { row: emptyRow(service, host, null), probe: true, domainsRead: true };
    });
  }

  async function probe(host: string): Promise<ProbedCertificate> {
    const target = await settle(async () => resolveDomain(host));
    if (!target.ok) return { validTo: null, problem: `The name ${host} could not be resolved` };
    return probeCertificate(host, target.value, Math.min(PROBE_TIMEOUT_MS, request.timeoutMs));
  }

  async function readAll(): Promise<CertificateRow[]> {
    const state = await parts.state();
    const { registry, vault } = state;
    const panelIds = registry.list().flatMap((record) => (vault.token(record.id, record.baseUrl) ? [record.id] : []));
    const listed = await new WorkPool<string, undefined, AppService[] | CertificateRow>({
      limit: concurrency,
      runOne: (panelId, _prepared, signal) => appServices(panelId, signal),
      cancelled: (panelId) => emptyRow({ panelId, projectName: '', serviceName: '' }, '', 'Not read'),
    }).run(panelIds);
    const failedPanels = listed.flatMap((one) => (Array.isArray(one) ? [] : [one]));
    const apps = listed.flatMap((one) => (Array.isArray(one) ? one : []));
    const planned = (
      await new WorkPool<AppService, undefined, Planned[]>({
        limit: concurrency,
        perKey: INSPECTS_PER_PANEL,
        keyOf: (service) => service.panelId,
        runOne: (service, _prepared, signal) => serviceRows(service, signal),
        cancelled: (service) => [unread(service, 'Not read')],
      }).run(apps)
    ).flat();
    // Each host once, whichever services share it.
    const hosts = [...new Set(planned.flatMap(({ row, probe }) => (probe ? [row.host] : [])))];
    const probed = await new WorkPool<string, undefined, ProbedCertificate>({
      limit: concurrency,
      runOne: (host) => probe(host),
      cancelled: () => ({ validTo: null, problem: 'Not read' }),
    }).run(hosts);
    const byHost = new Map(hosts.map((host, index) => [host, probed[index]!]));
    const at = now().getTime();
    const rows = planned.map(({ row, probe }): CertificateRow => {
      const read = probe ? byHost.get(row.host) : undefined;
      if (!read) return row;
      const daysLeft = read.validTo === null ? null : wholeDays(Date.parse(read.validTo) - at);
      // A self-signed or untrusted one that also ended: the end is what matters most.
      const ended = daysLeft !== null && daysLeft < 0 && !read.problem?.includes('expired') ? 'The certificate has expired. ' : '';
      const problem = ended || read.problem ? `${ended}${read.problem ?? ''}`.trim() : null;
      return { ...row, validTo: read.validTo, daysLeft, problem };
    });
    try {
      parts.certificatesRead?.(state, {
        readPanels: panelIds.filter((_, index) => Array.isArray(listed[index])),
        unreadServices: planned.flatMap(({ row, domainsRead }) =>
          domainsRead ? [] : [{ panelId: row.panelId, service: `${row.projectName}/${row.serviceName}` }],
        ),
        probed: rows.filter((_, index) => planned[index]!.probe),
      });
    } catch {
      // An alert that could not be kept does not fail the read.
    }
    return [...failedPanels, ...rows];
  }

  /** The kept rows of the panels still signed in: a sign-in that ended takes its rows away. */
  async function current(rows: readonly CertificateRow[]): Promise<CertificateRow[]> {
    const { registry, vault } = await parts.state();
    const signedIn = (panelId: string) => {
      const record = registry.get(panelId);
      return record !== undefined && Boolean(vault.token(panelId, record.baseUrl));
    };
    return rows.filter((row) => signedIn(row.panelId));
  }

  const kept = new KeptPass({ keptMs: CERTIFICATES_KEPT_MS, now, read: readAll, store: parts.store });
  return {
    async listCertificates(query) {
      return current(await kept.get(query?.refresh === true));
    },
  };
}
