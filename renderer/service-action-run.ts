import type { PanelBridge } from '../shared/bridge.ts';
import { SERVICE_ACTION_LABELS, type ServiceAction } from '../shared/service-actions.ts';
import type { Panel } from '../shared/types.ts';
import { failureInfo } from './failure-info.ts';
import type { WindowStore } from './window-store.ts';

/** A service action the operator chose, before and while it runs. */
export interface ServiceActionRequest {
  projectName: string;
  serviceName: string;
  action: ServiceAction;
}

const DONE: Readonly<Record<ServiceAction, string>> = { deploy: 'Deployed', start: 'Started', stop: 'Stopped', restart: 'Restarted' };

/**
 * What the action will do, said before it is asked: the service, the panel, and what follows. Main
 * learns the type afresh; a database's start and stop are its enable and disable.
 */
export function serviceActionEffect({ action, projectName, serviceName }: ServiceActionRequest, panel: Panel): string {
  const target = `${projectName}/${serviceName} on ${panel.name} (${panel.address})`;
  switch (action) {
    case 'deploy':
      return `The panel builds ${target} from its source and rolls out the new version. It can take minutes; closing Paneldeck or this view does not cancel it.`;
    case 'start':
      return `The panel starts ${target}: its containers run again (a database is enabled).`;
    case 'stop':
      return `The panel stops ${target}: its containers stop and it serves nothing until it is started again (a database is disabled).`;
    case 'restart':
      return `The panel restarts ${target}: its containers start again and it may not answer for a moment.`;
  }
}

/** A production (red) panel asks for the service's name to be typed before it is stopped or deployed. */
export function asksForTypedName(panel: Panel, action: ServiceAction): boolean {
  return panel.colour === 'red' && (action === 'stop' || action === 'deploy');
}

/**
 * Sends the action once, and says its outcome as the window's notice, in the panel's words when it
 * refused. No answer is said as such, never as a failure. The window may have moved on meanwhile:
 * the notice is the window's, not the view's.
 */
export async function runServiceAction(
  api: Pick<PanelBridge, 'runServiceAction'>,
  windowStore: Pick<WindowStore, 'showNotice'>,
  panel: Panel,
  request: ServiceActionRequest,
): Promise<void> {
  const { projectName, serviceName, action } = request;
  const target = `${projectName}/${serviceName} on ${panel.name}`;
  try {
    const result = await api.runServiceAction(panel.id, request);
    windowStore.showNotice(
      result.outcome === 'done'
        ? { text: `${DONE[action]} ${target}.`, failed: false }
        : { text: `${SERVICE_ACTION_LABELS[action]} of ${target}: outcome unknown. ${result.message ?? ''}`.trim(), failed: false },
    );
  } catch (caught) {
    windowStore.showNotice({ text: `${SERVICE_ACTION_LABELS[action]} of ${target} failed: ${failureInfo(caught).message}`, failed: true });
  }
}
