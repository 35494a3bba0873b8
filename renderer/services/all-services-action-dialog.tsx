import { useMemo } from 'react';
import { plural } from '../../shared/counts.ts';
import { SERVICE_ACTION_LABELS } from '../../shared/service-actions.ts';
import { type FleetPlan, fleetEffects, fleetPlanGroups, fleetTypedPhrase, panelCount } from './all-services-actions.ts';
import type { FleetServiceRow } from './all-services-rows.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { ServicePlanList } from './service-plan-list.tsx';

interface FleetActionDialogProps {
  plan: FleetPlan;
  onConfirm(): void;
  onCancel(): void;
}

/** In the list: the project and service under their panel's heading; with the panel's name among those left out. */
const nameOf = (row: FleetServiceRow, skipped: boolean) => `${skipped ? `${row.panelName}: ` : ''}${row.projectName}/${row.name}`;

/**
 * The one question before an action across panels: every service it acts on under its panel's
 * name, those it leaves out and why, and what it does to each kind. With a red (production) panel
 * among them a phrase must be typed first (fleetTypedPhrase: the panel's name, or "restart 12
 * services" when several are red).
 */
export function FleetActionDialog({ plan, onConfirm, onCancel }: FleetActionDialogProps) {
  const { action, acting, skipped } = plan;
  const label = SERVICE_ACTION_LABELS[action];
  const expected = fleetTypedPhrase(plan);
  const panels = panelCount(acting);
  const groups = useMemo(() => fleetPlanGroups(plan), [plan]);
  const effects = useMemo(() => fleetEffects(plan), [plan]);
  const reds = new Set(acting.filter((row) => row.panelColour === 'red').map((row) => row.panelId)).size;
  const what = `${plural(acting.length, 'service')} on ${plural(panels, 'panel')}`;
  return (
    <ConfirmDialog
      className="service-action-dialog"
      title={`${label} ${what}?`}
      confirmLabel={`${label} ${plural(acting.length, 'service')}`}
      effect={
        <>
          <p>
            Each panel acts on its services below
            {skipped.length > 0 && `; ${plural(skipped.length, 'selected service is', 'selected services are')} left out and sent nothing`}.
          </p>
          <ul className="fleet-effects">
            {effects.map((effect) => (
              <li key={effect}>{effect}.</li>
            ))}
          </ul>
        </>
      }
      targets={
        <ServicePlanList label={`The services the ${action} acts on, by panel, and those left out`} groups={groups} nameOf={nameOf} />
      }
      details={
        <p className="muted">
          Each is sent once, a few at a time across the panels, and recorded in the activity log; a failure stops none of the others.
          Cancel, while it runs, stops those not started yet.
        </p>
      }
      typedName={
        expected === null
          ? null
          : {
              expected,
              notice:
                reds === 1
                  ? `${expected} is marked red: production. Type its name, ${expected}, to ${action} these services.`
                  : `${reds} of these panels are marked red: production. Type “${expected}” to go on.`,
              label: reds === 1 ? 'Panel name' : 'Confirmation',
              name: 'confirm-fleet-action',
            }
      }
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
