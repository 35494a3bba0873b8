import { PanelError } from '../../../shared/contract/errors.ts';
import { isRecord } from '../../../shared/guards.ts';
import type { ServerStats } from '../../../shared/services.ts';
import { type CallOptions, callPanel, MissingRouteError } from './panel-calls.ts';
import type { PanelEndpoint, RequestSettings } from './panel-endpoints.ts';
import { readServerLoad } from './service-answers.ts';

/** The server's figures as the contract gives them. */
export type ServerLoad = Pick<ServerStats, 'uptimeSeconds' | 'cpuPercent' | 'memory' | 'disk'>;

/**
 * The window a metrics read covers: its `range` (a number, so 2.33 is asked through the RPC
 * route) and `step`. Which unit `range` counts in is not known (docs/easypanel-api.md, "guessed"):
 * 3600 is an hour in seconds, or more in minutes; either is a sound window for the load now.
 */
export const METRICS_WINDOW = { range: 3600, step: '1m' } as const;

/**
 * The server's load: from the legacy monitor, which every generation has had (`monitorOld.` up to
 * 2.32, `getLegacyMonitorSystemStats` since 2.33); only where a panel has none, from the metrics
 * routes, and only when the panel's metrics stack is on (`getMetricsSettings`: Easypanel's paid
 * metrics). Each answer is read by its own shape. A panel with neither says so.
 */
export async function readLoad(
  settings: RequestSettings,
  panel: PanelEndpoint,
  token: string,
  options: CallOptions = {},
): Promise<ServerLoad> {
  try {
    return readServerLoad(await callPanel(settings, panel, token, 'getSystemStats', undefined, options));
  } catch (error) {
    if (!(error instanceof MissingRouteError)) throw error;
    let metricsOn: boolean;
    try {
      metricsOn = isMetricsOn(await callPanel(settings, panel, token, 'getMetricsSettings', undefined, options));
    } catch (settingsError) {
      if (!(settingsError instanceof MissingRouteError)) throw settingsError;
      throw new MissingRouteError("This panel's Easypanel has no server monitor Paneldeck knows: no legacy monitor, no metrics.");
    }
    if (!metricsOn)
      throw new MissingRouteError(
        "This panel's Easypanel has no legacy monitor, and its metrics are off: turn them on in Easypanel's settings to see the server's load.",
      );
    return readMetricsLoad(await callPanel(settings, panel, token, 'getMetricsSystemStats', METRICS_WINDOW, options));
  }
}

/** Whether `getMetricsSettings` says the metrics stack is on: `enabled: true`, as `updateMetricsSettings` takes it. */
export function isMetricsOn(answer: unknown): boolean {
  return isRecord(answer) && answer.enabled === true;
}

/**
 * A metrics answer, read by its own shape. What `getMetricsSystemStats` answers has not been seen
 * (docs/easypanel-api.md): one in the legacy monitor's shape is read as that; any other is said
 * plainly rather than guessed at.
 */
export function readMetricsLoad(answer: unknown): ServerLoad {
  const legacyShaped = isRecord(answer) && (isRecord(answer.cpuInfo) || isRecord(answer.memInfo) || isRecord(answer.diskInfo));
  if (legacyShaped) return readServerLoad(answer);
  throw new PanelError(
    'BAD_RESPONSE',
    "This panel's metrics answered in a shape Paneldeck does not read yet (and it has no legacy monitor): no server load to show.",
  );
}
