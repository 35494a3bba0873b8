import { memo } from 'react';
import type { ServiceSummary } from '../../shared/services.ts';
import type { FleetServiceRow } from './all-services-rows.ts';
import { phaseText } from './service-action-plan.ts';
import { replicasText, STATE_WORDS } from './service-rows.ts';
import type { RowHandlers } from './use-selectable-rows.ts';
import type { ServiceActionState } from '../window/service-action-store.ts';

interface ServiceRowProps {
  /** A panel's service, or one of the fleet's (its panel, load and read time get cells of their own). */
  service: ServiceSummary | FleetServiceRow;
  index: number;
  selected: boolean;
  /** The row the keyboard is on: its checkbox and button are the table's Tab stop. */
  tabbable: boolean;
  action: ServiceActionState | undefined;
  handlers: RowHandlers;
  /** When the fleet's row was read ("3 min ago"): a string, so the memoised row draws again only when it changes. */
  readText?: string;
}

const percent = (value: number | null) => (value === null ? '' : `${Math.round(value)}%`);
const megabytes = (value: number | null) =>
  value === null ? '' : value >= 1024 ? `${(value / 1024).toFixed(1)} GB` : `${Math.round(value)} MB`;

/** One service: drawn again only when one of its own props changes (selection, action, the service read). */
export const ServiceRow = memo(function ServiceRow({ service, index, selected, tabbable, action, handlers, readText }: ServiceRowProps) {
  const fleet = 'panelId' in service ? service : null;
  const name = `${fleet ? `${fleet.panelName}: ` : ''}${service.projectName}/${service.name}`;
  return (
    <tr
      className={`state-${service.state}${selected ? ' is-selected' : ''}`}
      aria-rowindex={index + 2}
      data-index={index}
      onClick={(event) => {
        if ((event.target as Element).closest('input, button') === null) handlers.click(index, event);
      }}
      onContextMenu={(event) => {
        event.preventDefault();
        handlers.menu(index, { x: event.clientX, y: event.clientY });
      }}
    >
      <td className="service-check">
        <input
          type="checkbox"
          aria-label={`Select ${name}`}
          tabIndex={tabbable ? 0 : -1}
          checked={selected}
          // The click carries Shift and Ctrl, which a change event does not.
          onClick={(event) => handlers.check(index, event)}
          onChange={() => undefined}
        />
      </td>
      {/* A narrow window has no room for the replicas column: the state says them on hover. */}
      <td className="service-state" title={`${STATE_WORDS[service.state]}, replicas ${replicasText(service)}`}>
        <span className={`state-mark state-${service.state}`} aria-hidden="true" />
        {STATE_WORDS[service.state]}
      </td>
      {fleet && (
        <td className={`fleet-panel${fleet.panelColour ? ` colour-${fleet.panelColour}` : ''}`} title={fleet.panelName}>
          {fleet.panelName}
        </td>
      )}
      <td title={service.projectName}>{service.projectName}</td>
      <td className="service-name" title={service.name}>
        {service.name}
      </td>
      <td className="service-type">{service.type}</td>
      <td className="service-replicas">{replicasText(service)}</td>
      {fleet && (
        <>
          <td className="fleet-figure">{percent(fleet.cpuPercent)}</td>
          <td className="fleet-figure fleet-memory">{megabytes(fleet.memoryMb)}</td>
          <td className="fleet-read" title={fleet.readAt}>
            {readText}
          </td>
        </>
      )}
      <td className={`service-phase${action ? ` phase-${action.phase}` : ''}`} title={action?.message ?? undefined}>
        {action ? phaseText(action) : ''}
      </td>
      <td className="service-menu">
        <button
          type="button"
          className="row-menu-button"
          aria-label={`Actions for ${name}`}
          aria-haspopup="menu"
          tabIndex={tabbable ? 0 : -1}
          onClick={(event) => {
            const box = event.currentTarget.getBoundingClientRect();
            handlers.menu(index, { x: box.left, y: box.bottom + 2 });
          }}
        >
          ⋯
        </button>
      </td>
    </tr>
  );
});
