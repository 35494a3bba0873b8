import { memo } from 'react';
import type { ServiceSummary } from '../../shared/services.ts';
import { phaseText } from '../service-action-plan.ts';
import { replicasText, STATE_WORDS } from '../service-rows.ts';
import type { ServiceActionState } from '../window-store.ts';

/** What a row tells the table: made once by the table, so a memoised row never draws again for them. */
export interface RowHandlers {
  /** A click on the row (not on its checkbox or button): on its own, Ctrl to add, Shift for a range. */
  click(index: number, event: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }): void;
  /** Its checkbox: in or out of the selection, Shift for a range. */
  check(index: number, event: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }): void;
  /** Its row menu, at this point of the window. */
  menu(index: number, at: { x: number; y: number }): void;
}

interface ServiceRowProps {
  service: ServiceSummary;
  index: number;
  selected: boolean;
  /** The row the keyboard is on: its checkbox and button are the table's Tab stop. */
  tabbable: boolean;
  action: ServiceActionState | undefined;
  handlers: RowHandlers;
}

/** One service: drawn again only when one of its own props changes (selection, action, the service read). */
export const ServiceRow = memo(function ServiceRow({ service, index, selected, tabbable, action, handlers }: ServiceRowProps) {
  const name = `${service.projectName}/${service.name}`;
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
      <td title={service.projectName}>{service.projectName}</td>
      <td className="service-name" title={service.name}>
        {service.name}
      </td>
      <td className="service-type">{service.type}</td>
      <td className="service-replicas">{replicasText(service)}</td>
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
