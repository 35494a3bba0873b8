import { useState } from 'react';
import { plural } from '../../shared/counts.ts';
import { SERVICE_ACTION_LABELS } from '../../shared/service-actions.ts';
import type { Panel } from '../../shared/types.ts';
import { effectOn, type ServiceActionPlan, typedNameFor } from '../service-action-plan.ts';
import { ACTIONS_AT_ONCE, serviceActionEffect } from '../service-action-run.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { TextField } from './text-field.tsx';

interface ServiceActionDialogProps {
  panel: Panel;
  plan: ServiceActionPlan;
  onConfirm(): void;
  onCancel(): void;
}

const fullName = ({ projectName, name }: { projectName: string; name: string }) => `${projectName}/${name}`;

/**
 * The one question before a service action, on one service or a selection: what it will do, to
 * which services, on which panel, and which selected services it leaves out and why. On a
 * production (red) panel, a stop or a deploy also asks for a name to be typed: the service's for
 * one, the panel's for several. A long list scrolls inside; the buttons stay in view.
 */
export function ServiceActionDialog({ panel, plan, onConfirm, onCancel }: ServiceActionDialogProps) {
  const [typed, setTyped] = useState('');
  const { action, acting, skipped } = plan;
  const expected = typedNameFor(panel, plan);
  const label = SERVICE_ACTION_LABELS[action];
  const matches = expected === null || typed.trim() === expected;
  const only = acting.length === 1 ? acting[0]! : null;
  return (
    <ConfirmDialog
      className="service-action-dialog"
      title={only ? `${label} ${fullName(only)}?` : `${label} ${plural(acting.length, 'service')} on ${panel.name}?`}
      confirmLabel={only ? `${label} ${only.name}` : `${label} ${plural(acting.length, 'service')}`}
      confirmDisabled={!matches}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long list scrolls here, and must take the keyboard to be scrolled (axe: scrollable-region-focusable) */}
      <div className="dialog-body" tabIndex={0}>
        {only ? (
          <p>{serviceActionEffect({ projectName: only.projectName, serviceName: only.name, action }, panel)}</p>
        ) : (
          <>
            <p>
              The panel {panel.name} ({panel.address}) acts on each of these {acting.length} services:
            </p>
            <ul className="service-plan">
              {acting.map((service) => (
                <li key={fullName(service)}>
                  <strong>{fullName(service)}</strong> <span className="muted">({service.type})</span>: {effectOn(service, action)}
                </li>
              ))}
            </ul>
          </>
        )}
        {skipped.length > 0 && (
          <>
            <p>{plural(skipped.length, 'selected service is', 'selected services are')} left out, and not sent anything:</p>
            <ul className="service-plan service-plan-skipped">
              {skipped.map(({ service, why }) => (
                <li key={fullName(service)}>
                  <strong>{fullName(service)}</strong> <span className="muted">({service.type})</span>: {why}
                </li>
              ))}
            </ul>
          </>
        )}
        <p className="muted">
          {only
            ? 'Paneldeck sends it once and records it in the activity log.'
            : `Paneldeck sends each once, ${ACTIONS_AT_ONCE} at a time; one that fails does not stop the others. Each is recorded in the activity log.`}
        </p>
      </div>
      {expected !== null && (
        <>
          <p className="notice notice-warning">
            {panel.name} is marked red: production.{' '}
            {only
              ? `Type the service's name, ${expected}, to ${action} it.`
              : `Type the panel's name, ${expected}, to ${action} these services.`}
          </p>
          <TextField
            label={only ? 'Service name' : 'Panel name'}
            name="confirm-service-name"
            autoComplete="off"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && matches) onConfirm();
            }}
          />
        </>
      )}
    </ConfirmDialog>
  );
}
