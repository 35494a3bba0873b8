import { useState } from 'react';
import { SERVICE_ACTION_LABELS, SERVICE_ACTIONS, SERVICE_NAME_PATTERN } from '../../shared/service-actions.ts';
import type { Panel } from '../../shared/types.ts';
import { useWindowContext, useWindowState } from '../app-context.tsx';
import { runServiceAction, type ServiceActionRequest } from '../service-action-run.ts';
import { serviceActionKey } from '../window-store.ts';
import { ServiceActionDialog } from './service-action-dialog.tsx';
import { TextField } from './text-field.tsx';

/** How a phase reads beside the service: a deploy under way is deploying. */
const PHASES = { sent: 'under way', done: 'done', failed: 'failed', unknown: 'outcome unknown' } as const;

/**
 * Deploy, start, stop or restart a service of the panel, named by its project and service (the
 * Services tab's row menu will offer the same buttons, `ServiceActionButtons`). Each asks once.
 */
export function ServiceActionsView({ panel }: { panel: Panel }) {
  const [projectName, setProjectName] = useState('');
  const [serviceName, setServiceName] = useState('');
  const invalid = (name: string) => name !== '' && !SERVICE_NAME_PATTERN.test(name);
  const ready = projectName !== '' && serviceName !== '' && !invalid(projectName) && !invalid(serviceName);
  return (
    <section className="service-actions" aria-labelledby="service-actions-title">
      <h2 id="service-actions-title">Service actions</h2>
      <p className="muted">Name a service of {panel.name}; Paneldeck reads its type from the panel before it sends anything.</p>
      <div className="service-actions-fields">
        <TextField
          label="Project"
          value={projectName}
          onChange={(event) => setProjectName(event.target.value.trim())}
          error={invalid(projectName) ? 'Lowercase letters, digits, - and _ only.' : null}
        />
        <TextField
          label="Service"
          value={serviceName}
          onChange={(event) => setServiceName(event.target.value.trim())}
          error={invalid(serviceName) ? 'Lowercase letters, digits, - and _ only.' : null}
        />
      </div>
      <ServiceActionButtons panel={panel} projectName={projectName} serviceName={serviceName} disabled={!ready} />
    </section>
  );
}

interface ServiceActionButtonsProps {
  panel: Panel;
  projectName: string;
  serviceName: string;
  disabled?: boolean;
}

/** The four actions on one service, each behind its confirmation, and how the last one stands. */
export function ServiceActionButtons({ panel, projectName, serviceName, disabled = false }: ServiceActionButtonsProps) {
  const { api, windowStore } = useWindowContext();
  const { serviceActions } = useWindowState();
  const [asking, setAsking] = useState<ServiceActionRequest | null>(null);
  const last = serviceActions.get(serviceActionKey(panel.id, projectName, serviceName)) ?? null;
  const busy = last?.phase === 'sent';
  const standing = last && (busy && last.action === 'deploy' ? 'deploying' : `${SERVICE_ACTION_LABELS[last.action]} ${PHASES[last.phase]}`);
  return (
    <div className="service-action-buttons">
      {/* biome-ignore lint/a11y/useSemanticElements: a row of buttons, not a form */}
      <div role="group" aria-label={`Actions on ${projectName || 'the service'}/${serviceName}`} className="form-actions">
        {SERVICE_ACTIONS.map((action) => (
          <button
            key={action}
            type="button"
            className={action === 'stop' ? 'button-danger' : undefined}
            disabled={disabled || busy}
            onClick={() => setAsking({ projectName, serviceName, action })}
          >
            {SERVICE_ACTION_LABELS[action]}
          </button>
        ))}
        {standing && (
          <span className="muted" role="status">
            {standing}
          </span>
        )}
      </div>
      {asking && (
        <ServiceActionDialog
          panel={panel}
          request={asking}
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            setAsking(null);
            void runServiceAction(api, windowStore, panel, asking);
          }}
        />
      )}
    </div>
  );
}
