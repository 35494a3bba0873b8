import { Fragment } from 'react';
import { plural } from '../../shared/counts.ts';
import { SERVICE_ACTION_LABELS, type ServiceAction } from '../../shared/service-actions.ts';
import type { ServiceActionPlan } from './service-action-plan.ts';

interface ServiceActionBarProps {
  count: number;
  /** Each action planned on the selection, in the buttons' order. */
  plans: readonly ServiceActionPlan[];
  onChoose(action: ServiceAction): void;
  onClear(): void;
}

/** "3 services selected: Deploy · Start · Stop · Restart": an action none of them has is greyed out, and says why. */
export function ServiceActionBar({ count, plans, onChoose, onClear }: ServiceActionBarProps) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a row of buttons, not a form
    <div className="service-action-bar" role="group" aria-label="Actions on the services selected">
      <span className="service-action-count">{plural(count, 'service')} selected:</span>
      {plans.map(({ action, acting, skipped }, index) => (
        <Fragment key={action}>
          {index > 0 && (
            <span className="muted" aria-hidden="true">
              ·
            </span>
          )}
          <button
            type="button"
            className={action === 'stop' ? 'button-danger' : undefined}
            disabled={acting.length === 0}
            title={skipped.length === 0 ? undefined : `${acting.length} of ${count} can be sent a ${action}`}
            onClick={() => onChoose(action)}
          >
            {SERVICE_ACTION_LABELS[action]}
          </button>
        </Fragment>
      ))}
      <button type="button" aria-label="Clear selection" onClick={onClear}>
        Clear
      </button>
    </div>
  );
}
