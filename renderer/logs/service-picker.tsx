import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import type { ServiceRef } from '../../shared/service-logs.ts';
import { useWindowContext } from '../window/app-context.tsx';
import { serviceNameProblem } from './log-lines.ts';
import { pickerSuggestions } from '../services/index.ts';
import { usePanelRead } from '../ui/read-bar.tsx';
import { TextField } from '../ui/text-field.tsx';

/**
 * The project and service a tab reads (Logs, Deployments), typed as Easypanel names them and
 * checked as typed once the operator has tried to send them. The panel's services, as the Services
 * tab read them (read now when they were not), are offered as the operator types.
 */
export function ServicePicker({
  panelId,
  busy,
  submitLabel,
  busyLabel,
  onPick,
  children,
}: {
  panelId: string;
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
  const { reads } = useWindowContext();
  const list = usePanelRead(reads.services, panelId).value;
  const suggested = useMemo(() => pickerSuggestions(list, project), [list, project]);
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
        suggestions={suggested.projects}
      />
      <TextField
        label="Service"
        value={service}
        onChange={(event) => setService(event.target.value.trim())}
        error={tried ? serviceNameProblem('service', service) : null}
        suggestions={suggested.services}
      />
      {children}
      <button type="submit" className="button-primary" disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </button>
    </form>
  );
}
