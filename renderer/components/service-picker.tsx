import { type FormEvent, type ReactNode, useState } from 'react';
import type { ServiceRef } from '../../shared/service-logs.ts';
import { serviceNameProblem } from '../log-lines.ts';
import { TextField } from './text-field.tsx';

/**
 * The project and service a tab reads (Logs, Deployments), typed as Easypanel names them and
 * checked as typed once the operator has tried to send them.
 */
export function ServicePicker({
  busy,
  submitLabel,
  busyLabel,
  onPick,
  children,
}: {
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  onPick(service: ServiceRef): void;
  /** More fields, between the names and the button. */
  children?: ReactNode;
}) {
  const [project, setProject] = useState('');
  const [service, setService] = useState('');
  const [tried, setTried] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (serviceNameProblem('project', project) || serviceNameProblem('service', service)) return;
    onPick({ projectName: project, serviceName: service });
  };
  return (
    <form className="logs-picker" onSubmit={submit} noValidate>
      <TextField
        label="Project"
        value={project}
        onChange={(event) => setProject(event.target.value.trim())}
        error={tried ? serviceNameProblem('project', project) : null}
      />
      <TextField
        label="Service"
        value={service}
        onChange={(event) => setService(event.target.value.trim())}
        error={tried ? serviceNameProblem('service', service) : null}
      />
      {children}
      <button type="submit" className="button-primary" disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </button>
    </form>
  );
}
