import { durationText } from '../../shared/durations.ts';
import { versionLabel } from '../../shared/panel-version.ts';
import type { ServerStats } from '../../shared/services.ts';
import type { Panel } from '../../shared/types.ts';
import { useHealth, useWindowContext } from '../window/app-context.tsx';
import { judgePanel } from '../ui/panel-state.ts';
import { ReadBar, usePanelRead } from '../ui/read-bar.tsx';
import { FeaturesNotice } from './features-notice.tsx';
import { madeOnce } from '../../shared/made-once.ts';

/** From here a bar turns amber ("nearly full"), and from the next red ("full"). */
export const AMBER_FROM_PERCENT = 80;
export const RED_FROM_PERCENT = 90;

type Level = 'ok' | 'amber' | 'red';

function levelOf(percent: number): Level {
  return percent >= RED_FROM_PERCENT ? 'red' : percent >= AMBER_FROM_PERCENT ? 'amber' : 'ok';
}

const LEVEL_WORDS: Readonly<Record<Level, string>> = { ok: '', amber: 'filling up', red: 'nearly full' };

const oneDecimal = madeOnce(() => new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }));

/** The panel's server at a glance: version, uptime, CPU, memory and disk, read in the background. */
export function OverviewTab({ panel }: { panel: Panel }) {
  const { reads } = useWindowContext();
  const state = usePanelRead(reads.stats, panel.id);
  const stats = state.value;
  // What the last check made of the panel's state, said here too: blank figures must not read as a healthy server.
  const health = useHealth().get(panel.id);
  const judged = judgePanel(panel, health);
  return (
    <section className="overview-tab" aria-labelledby="overview-title" aria-busy={state.loading}>
      <ReadBar
        id="overview-title"
        title="Overview"
        state={state}
        what="the server's load"
        onRefresh={() => void reads.stats.load(panel.id)}
      />
      {judged.state === 'unknown' && (
        <div className="notice notice-warning overview-state">
          <p className="notice-title">{judged.word}</p>
          {/* The problem in full: the reason is one cell's worth, cut. */}
          <p className="notice-detail">{health?.problem?.message ?? judged.reason}</p>
        </div>
      )}
      {stats && (saysAnything(stats) ? <ServerFigures stats={stats} /> : <p className="muted">{NOTHING_READ}</p>)}
      <FeaturesNotice panel={panel} />
    </section>
  );
}

const NOTHING_READ = "The panel's server stats held no figure Paneldeck reads: the server's load is unknown.";

/** Whether the answer said any figure at all: one that said none was not understood, and is said so rather than drawn blank. */
function saysAnything(stats: ServerStats): boolean {
  const { uptimeSeconds, cpuPercent, memory, disk } = stats;
  return [uptimeSeconds, cpuPercent, memory.usedMb, memory.totalMb, disk.usedGb, disk.totalGb].some((figure) => figure !== null);
}

function ServerFigures({ stats }: { stats: ServerStats }) {
  const memory = stats.memory;
  const disk = stats.disk;
  return (
    <div className="overview-grid">
      <dl className="card summary overview-facts">
        <div className="summary-row">
          <dt>Easypanel</dt>
          <dd>{stats.version === null ? 'Version not known' : versionLabel(stats.version)}</dd>
        </div>
        <div className="summary-row">
          <dt>Up for</dt>
          <dd>{stats.uptimeSeconds === null ? 'Not said' : durationText(stats.uptimeSeconds * 1000)}</dd>
        </div>
      </dl>
      <UsageCard label="CPU" used={stats.cpuPercent} total={stats.cpuPercent === null ? null : 100} unit="%" />
      <UsageCard label="Memory" used={megabytesToGigabytes(memory.usedMb)} total={megabytesToGigabytes(memory.totalMb)} unit="GB" />
      <UsageCard label="Disk" used={disk.usedGb} total={disk.totalGb} unit="GB" />
    </div>
  );
}

const megabytesToGigabytes = (mb: number | null) => (mb === null ? null : mb / 1024);

/** One figure with a bar that turns amber, then red, near full; the words say it too. */
function UsageCard({ label, used, total, unit }: { label: string; used: number | null; total: number | null; unit: string }) {
  const percent = used !== null && total !== null && total > 0 ? Math.min(100, (used / total) * 100) : null;
  const level = percent === null ? null : levelOf(percent);
  const amount =
    unit === '%'
      ? used === null
        ? 'Not said'
        : `${oneDecimal().format(used)} %`
      : used === null && total === null
        ? 'Not said'
        : `${used === null ? '?' : oneDecimal().format(used)} of ${total === null ? '?' : oneDecimal().format(total)} ${unit}`;
  return (
    <div className={`card usage-card${level ? ` usage-${level}` : ''}`}>
      <div className="usage-heading">
        <h3>{label}</h3>
        <span className="usage-amount">
          {amount}
          {percent !== null && unit !== '%' && <span className="muted"> ({Math.round(percent)} %)</span>}
        </span>
      </div>
      {percent !== null && level !== null && (
        // biome-ignore lint/a11y/useSemanticElements: a <meter> draws its own bar in the system's colours; this one follows the theme and the levels above
        <div
          className="usage-bar"
          role="meter"
          aria-label={`${label} used`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(percent)}
          aria-valuetext={`${Math.round(percent)} %${LEVEL_WORDS[level] ? `, ${LEVEL_WORDS[level]}` : ''}`}
        >
          <span className="usage-fill" style={{ width: `${percent}%` }} />
        </div>
      )}
      {level !== null && level !== 'ok' && <p className="usage-warning">{`${label} is ${LEVEL_WORDS[level]}`}</p>}
    </div>
  );
}
