import { useState } from 'react';
import { SERVICE_ACTION_LABELS } from '../../shared/service-actions.ts';
import type { Panel } from '../../shared/types.ts';
import { asksForTypedName, type ServiceActionRequest, serviceActionEffect } from '../service-action-run.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { TextField } from './text-field.tsx';

interface ServiceActionDialogProps {
  panel: Panel;
  request: ServiceActionRequest;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * The one question before a service action: what it will do, to which service, on which panel.
 * On a production (red) panel, a stop or a deploy also asks for the service's name to be typed.
 */
export function ServiceActionDialog({ panel, request, onConfirm, onCancel }: ServiceActionDialogProps) {
  const [typed, setTyped] = useState('');
  const typing = asksForTypedName(panel, request.action);
  const label = SERVICE_ACTION_LABELS[request.action];
  const matches = typed.trim() === request.serviceName;
  return (
    <ConfirmDialog
      title={`${label} ${request.projectName}/${request.serviceName}?`}
      confirmLabel={`${label} ${request.serviceName}`}
      confirmDisabled={typing && !matches}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>{serviceActionEffect(request, panel)}</p>
      <p className="muted">Paneldeck sends it once and records it in the activity log.</p>
      {typing && (
        <>
          <p className="notice notice-warning">
            {panel.name} is marked red: production. Type the service's name, {request.serviceName}, to {request.action} it.
          </p>
          <TextField
            label="Service name"
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
