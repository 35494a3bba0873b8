import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, useRef } from 'react';
import { plural } from '../../shared/counts.ts';
import type { ServiceSummary } from '../../shared/services.ts';
import type { PlanGroup } from './service-action-plan.ts';

/** A group's heading and each service are one line of a fixed height: a list of thousands needs no measuring. */
const HEADING_HEIGHT = 46;
const SERVICE_HEIGHT = 24;

type Line<T extends ServiceSummary> = { kind: 'heading'; group: PlanGroup<T> } | { kind: 'service'; service: T; skipped: boolean };

/**
 * Every service of a confirmation, grouped by what happens to it (or why it is left out), in a box
 * that scrolls. Only the lines in view are in the page: a confirmation of 2,000 services opens as
 * quickly as one of three.
 */
export function ServicePlanList<T extends ServiceSummary>({
  label,
  groups,
  nameOf = (service) => `${service.projectName}/${service.name}`,
}: {
  label: string;
  groups: readonly PlanGroup<T>[];
  /** How a service is named in the list: its project and name (across panels, its panel's name first where it helps). */
  nameOf?: (service: T, skipped: boolean) => string;
}) {
  const lines = useMemo(
    () =>
      groups.flatMap((group): Line<T>[] => [
        { kind: 'heading', group },
        ...group.services.map((service) => ({ kind: 'service' as const, service, skipped: group.skipped })),
      ]),
    [groups],
  );
  const scroller = useRef<HTMLDivElement>(null);
  const getScrollElement = useCallback(() => scroller.current, []);
  const estimateSize = useCallback((index: number) => (lines[index]!.kind === 'heading' ? HEADING_HEIGHT : SERVICE_HEIGHT), [lines]);
  const virtualizer = useVirtualizer({ count: lines.length, getScrollElement, estimateSize, overscan: 10 });
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a long list scrolls here, and must take the keyboard to be scrolled (axe: scrollable-region-focusable)
    <div ref={scroller} className="service-plan-scroller" tabIndex={0} style={{ height: virtualizer.getTotalSize() }}>
      <ul className="service-plan" aria-label={label} style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((virtual) => {
          const line = lines[virtual.index]!;
          const style = { transform: `translateY(${virtual.start}px)`, height: virtual.size };
          if (line.kind === 'heading') {
            const { heading, skipped, services } = line.group;
            return (
              <li key={virtual.key} className={`service-plan-heading${skipped ? ' skipped' : ''}`} style={style}>
                {heading} · {plural(services.length, 'service')}
              </li>
            );
          }
          const name = nameOf(line.service, line.skipped);
          return (
            <li key={virtual.key} className={`service-plan-item${line.skipped ? ' skipped' : ''}`} style={style} title={name}>
              <strong>{name}</strong> <span className="muted">({line.service.type})</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
