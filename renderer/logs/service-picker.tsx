import { type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import type { ServiceRef } from '../../shared/service-logs.ts';
import { useServicePick, useWindowContext } from '../window/app-context.tsx';
import { sameService } from '../window/service-pick-store.ts';
import { serviceNameProblem } from './log-lines.ts';
import { pickerSuggestions } from '../services/index.ts';
import { usePanelRead } from '../ui/read-bar.tsx';
import { TextField } from '../ui/text-field.tsx';

/**
 * The project and service a tab reads (Logs, Deployments), typed as Easypanel names them and
 * checked as typed once the operator has tried to send them. The panel's services, as the Services
 * tab read them (read now when they were not), are offered as the operator types. The service last
 * chosen for the panel (here, in the other tab or from a service row) fills the fields.
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
  // The fields say the service remembered for the panel, and follow it when it is chosen elsewhere (a service row, the other tab).
  const remembered = useServicePick(panelId);
  const [project, setProject] = useState(remembered?.projectName ?? '');
  const [service, setService] = useState(remembered?.serviceName ?? '');
  useEffect(() => {
    if (!remembered) return;
    setProject(remembered.projectName);
    setService(remembered.serviceName);
  }, [remembered]);
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

/**
 * The service a tab (Logs, Deployments) shows, remembered per panel while the window is open:
 * `onShow` runs for the remembered one when the tab opens, and again when another is chosen
 * from a service row or the other tab. `choose` is the picker's: it remembers and shows.
 */
export function useRememberedService(panelId: string, onShow: (service: ServiceRef) => void): (service: ServiceRef) => void {
  const { servicePickStore } = useWindowContext();
  const remembered = useServicePick(panelId);
  const shownLast = useRef<ServiceRef | null>(null);
  const show = useRef(onShow);
  show.current = onShow;
  useEffect(() => {
    if (!remembered || sameService(remembered, shownLast.current)) return;
    shownLast.current = remembered;
    show.current(remembered);
  }, [remembered]);
  return (service: ServiceRef) => {
    shownLast.current = service;
    servicePickStore.choose(panelId, service);
    show.current(service);
  };
}
