import { settle } from '../../../shared/contract/envelope.ts';
import { LOG_IN_CANCELLED_MESSAGE, outcomeOfError, type FleetLogInResult } from '../../../shared/fleet-login.ts';
import { isUnencrypted } from '../../../shared/plain-http.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import { PanelPass } from '../schedule/panel-pass.ts';
import { RunHolder } from '../schedule/run-holder.ts';
import type { LogInCredentials } from '../easypanel/panel-endpoints.ts';
import type { PanelLogIn } from './panel-log-in.ts';
import type { CoreMethods, Emit, OpenedFolder } from '../context/core-context.ts';

/** What the log in to several panels uses: the folder (the panels, the concurrency setting), the clock, the window's progress events. */
export interface FleetSignInParts extends OpenedFolder {
  now(): Date;
  emit: Emit;
}

const ALREADY_RUNNING =
  'Paneldeck is already logging in to several panels. Wait for that to finish, or cancel it, before starting another.';
const PLAIN_HTTP_MESSAGE =
  'Not sent: this panel is on plain http:// and was not named in the form as one to send the password to unencrypted. Log in to it on its own.';

/**
 * Logs in to several panels with one email and password. Each run is a panel pass of its own
 * that holds the credentials: they are gone with it when the last log in ends. Each panel goes
 * through the one log in of a panel (`panel-log-in.ts`), so generations, pinned certificates,
 * redirects and two-factor answers are handled as when the operator logs in to it alone.
 */
export function fleetSignInMethods(parts: FleetSignInParts, logInPanel: PanelLogIn): CoreMethods<'logInPanels' | 'cancelLogIns'> {
  const { state, opened, now, emit } = parts;
  const runs = new RunHolder<PanelPass<FleetLogInResult>>(ALREADY_RUNNING);

  async function logInOne(
    panelId: string,
    credentials: LogInCredentials,
    plainHttpAllowed: ReadonlySet<string>,
    asked: ReadonlyMap<string, string>,
  ): Promise<FleetLogInResult> {
    const answer = await settle(async () => {
      const record = (await state()).registry.get(panelId);
      // Checked as the log in starts: a panel moved to plain http after the form was filled is not sent to.
      if (record && isUnencrypted(record) && !plainHttpAllowed.has(panelId)) return 'plainHttpRefused' as const;
      const baseUrl = asked.get(panelId);
      await logInPanel(panelId, credentials, baseUrl === undefined ? undefined : { baseUrl });
      return 'signedIn' as const;
    });
    if (!answer.ok) return { panelId, outcome: outcomeOfError(answer.error), error: answer.error };
    if (answer.value === 'signedIn') return { panelId, outcome: 'signedIn' };
    return { panelId, outcome: 'plainHttpRefused', error: { code: 'FORBIDDEN', message: PLAIN_HTTP_MESSAGE } };
  }

  return {
    async logInPanels(requested, { email, password, rememberMe, sendOverPlainHttp }) {
      const credentials: LogInCredentials = { email, password, rememberMe };
      const plainHttpAllowed = new Set(sendOverPlainHttp ?? []);
      // Each panel's address as the run was asked: a panel moved since gets no password, and is listed so.
      // Read from the folder already open (it is, once the window has listed the panels), so that
      // the run is held at once: a Cancel or a second run right after the ask must find it.
      const { registry } = opened() ?? (await state());
      const asked = new Map(
        requested.flatMap((panelId) => {
          const record = registry.get(panelId);
          return record ? [[panelId, record.baseUrl] as const] : [];
        }),
      );
      const start = () =>
        new PanelPass<FleetLogInResult>({
          concurrency: () => opened()?.settings.get().checkConcurrency ?? DEFAULT_SETTINGS.checkConcurrency,
          // The signal is left unread: a log in already sent finishes, so its outcome is known.
          runOne: (panelId) => logInOne(panelId, credentials, plainHttpAllowed, asked),
          cancelled: (panelId) => ({ panelId, outcome: 'cancelled', error: { code: 'CANCELLED', message: LOG_IN_CANCELLED_MESSAGE } }),
          onProgress: (done, total) => emit({ type: 'logInProgress', done, total }),
          now,
        });
      return runs.hold(start, (pass) => pass.run(requested));
    },

    async cancelLogIns() {
      runs.cancel();
    },
  };
}
