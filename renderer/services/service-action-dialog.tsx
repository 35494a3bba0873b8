import { useMemo } from 'react';
import { plural } from '../../shared/counts.ts';
import { SERVICE_ACTIONS_PER_PANEL } from '../../shared/fleet-services.ts';
import { SERVICE_ACTION_LABELS } from '../../shared/service-actions.ts';
import type { Panel } from '../../shared/types.ts';
import { planGroups, type ServiceActionPlan, typedNameFor } from './service-action-plan.ts';
import { serviceActionEffect } from './service-action-run.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { ServicePlanList } from './service-plan-list.tsx';

interface ServiceActionDialogProps {
  panel: Panel;
  plan: ServiceActionPlan;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * The one question before a service action, on one service or a selection: what it will do, to
 * which services, on which panel, and which selected services it leaves out and why. On a
 * production (red) panel, a stop or a deploy also asks for a name to be typed: the service's for
 * one, the panel's for several. A long list scrolls inside; the buttons stay in view.
 */
export function ServiceActionDialog({ panel, plan, onConfirm, onCancel }: ServiceActionDialogProps) {
  const { action, acting, skipped } = plan;
  const expected = typedNameFor(panel, plan);
  const label = SERVICE_ACTION_LABELS[action];
  const only = acting.length === 1 ? acting[0]! : null;
  // One service acted on is said in a sentence: the list is then only of those left out.
  const groups = useMemo(() => planGroups(only ? { ...plan, acting: [] } : plan), [plan, only]);
  return (
    <ConfirmDialog
      className="service-action-dialog"
      title={only ? `${label} ${only.projectName}/${only.name}?` : `${label} ${plural(acting.length, 'service')} on ${panel.name}?`}
      confirmLabel={only ? `${label} ${only.name}` : `${label} ${plural(acting.length, 'service')}`}
      effect={
        <>
          {only ? (
            <p>{serviceActionEffect({ projectName: only.projectName, serviceName: only.name, action }, panel)}</p>
          ) : (
            <p>
              The panel {panel.name} ({panel.address}) acts on each of these {acting.length} services
              {skipped.length > 0 &&
                `; ${plural(skipped.length, 'selected service is', 'selected services are')} left out and sent nothing`}
              . Above each group: what happens to it.
            </p>
          )}
          {only && skipped.length > 0 && (
            <p>{plural(skipped.length, 'selected service is', 'selected services are')} left out and sent nothing, for the reason said.</p>
          )}
        </>
      }
      targets={groups.length > 0 && <ServicePlanList label={`The services the ${action} acts on, and those left out`} groups={groups} />}
      details={
        <p className="muted">
          {only
            ? 'Paneldeck sends it once and records it in the activity log.'
            : `Each is sent once, ${SERVICE_ACTIONS_PER_PANEL} at a time, and recorded in the activity log; a failure stops none of the others.`}
        </p>
      }
      typedName={
        expected === null
          ? null
          : {
              expected,
              notice: (
                <>
                  {panel.name} is marked red: production.{' '}
                  {only
                    ? `Type the service's name, ${expected}, to ${action} it.`
                    : `Type the panel's name, ${expected}, to ${action} these services.`}
                </>
              ),
              label: only ? 'Service name' : 'Panel name',
              name: 'confirm-service-name',
            }
      }
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
