import type { PanelHealth } from '../../shared/fleet-state.ts';
import type { Panel } from '../../shared/types.ts';
import type { PanelFacts } from './panel-search.ts';
import { diskPercent, judgePanel, type PanelJudgement, percentOf } from '../ui/panel-state.ts';

/**
 * Why a panel needs the operator, from facts only: it does not answer, its session ended, a log
 * in failed, services are down, its disk is nearly full, its state could not be read or
 * understood. A panel signed out on purpose, or never logged in, needs nothing; a muted panel
 * keeps its reason but leaves "Needs attention". The judgement itself is the window's one
 * (ui/panel-state.ts), which the panel's header says too. Pure.
 */

export { DISK_FULL_PERCENT, diskPercent, percentOf, SEVERITY, type Severity, type StateTone } from '../ui/panel-state.ts';

export type PanelAttention = PanelJudgement;

export function memoryPercent(health: PanelHealth | undefined): number | null {
  return health ? percentOf(health.memory.usedMb, health.memory.totalMb) : null;
}

/** What the search's fact terms (`down`, `disk>90`, `version:2.30`) test of a panel. */
export function panelFacts(panel: Panel, health: PanelHealth | undefined): PanelFacts {
  return {
    servicesDown: health?.servicesDown ?? null,
    diskPercent: diskPercent(health),
    memoryPercent: memoryPercent(health),
    cpuPercent: health?.cpuPercent ?? null,
    version: panel.panelVersion ?? health?.version ?? null,
    updateAvailable: panel.updateAvailable,
  };
}

/** What is wrong with `panel` (and its last state read), worst first. */
export function panelAttention(panel: Panel, health: PanelHealth | undefined): PanelAttention {
  return judgePanel(panel, health);
}
