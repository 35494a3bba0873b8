import { fleetFileName } from '../../shared/fleet-file.ts';
import { useFleetFiles } from '../window/use-fleet-files.ts';
import { useId, useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { COLOUR_NAMES, type PanelColour } from '../../shared/labels.ts';
import type { BulkChange } from '../../shared/schemas/schemas.ts';
import type { Panel } from '../../shared/types.ts';
import { useApi, useCommandHandlers, usePanelChanges, useWindowContext } from '../window/app-context.tsx';
import { useBusyAction } from '../window/busy-action.ts';
import { fleetLogInLabel } from '../sign-in/index.ts';
import { count, signedInWords } from './selection-commands.ts';
import { useExportPanels } from '../window/window-commands.ts';
import {
  colourQuestion,
  groupQuestion,
  logOutQuestion,
  panelNames,
  removeQuestion,
  removeTagsQuestion,
  unmarkQuestion,
  type BulkQuestion,
} from './bulk-questions.tsx';
import { ColourOptions } from '../ui/colour-options.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { upgradeTargets } from '../upgrades/index.ts';
import { TextField } from '../ui/text-field.tsx';

interface BulkViewProps {
  /** The selected panels, in the list's order. */
  panels: readonly Panel[];
  /** Every group in use, offered for Move to group. */
  groups: readonly string[];
  /** Back to one panel: the one the keyboard is on. */
  onClear(): void;
}

/** Tags as the operator types them: separated by commas. */
const typedTags = (text: string) =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

/**
 * What can be done to several panels at once: log in (one dialog), check, log out and remove (each
 * asks first, once, naming the panels and how many), export, and move to a group, tag, colour or
 * mark as favourite. Each is one call to main.
 */
export function BulkView({ panels, groups, onClear }: BulkViewProps) {
  const api = useApi();
  const { changed, removed } = usePanelChanges();
  const exportPanels = useExportPanels();
  const { dialogStore } = useWindowContext();
  const logIn = () => dialogStore.openDialog({ kind: 'fleetLogIn', panelIds: panels.map((panel) => panel.id) });
  const upgradable = upgradeTargets(panels);
  const upgrade = () => dialogStore.openDialog({ kind: 'upgradePanels', panelIds: upgradable.map((panel) => panel.id) });
  const { busy, error, run: runBusy } = useBusyAction();
  const [outcome, setOutcome] = useState('');
  /** The question an action that loses something asks before it runs, and its answer; null when none is open. */
  const [question, setQuestion] = useState<{ asked: BulkQuestion; answer(confirmed: boolean): void } | null>(null);
  const groupInput = useRef<HTMLInputElement>(null);
  const ids = panels.map((panel) => panel.id);
  const signedIn = panels.filter((panel) => panel.signedIn);
  const many = count(panels.length);

  const files = useFleetFiles();
  /** Into a followed fleet file (`fileId`), or a new one where main's save dialog says (null). */
  const share = (fileId: string | null) =>
    run(async () => {
      const file = fileId === null ? await api.createFleetFile(ids) : await api.shareInFleetFile(ids, fileId);
      return file ? `${count(panels.length)} shared in ${fleetFileName(file.path)}.` : '';
    });
  /** Whether the action succeeded; what it did, or why it failed, is shown. */
  const run = (action: () => Promise<string>) =>
    runBusy(async () => {
      setOutcome('');
      setOutcome(await action());
    });
  const check = () =>
    run(async () => {
      const results = await api.checkPanels(signedIn.map((panel) => panel.id));
      const failed = results.filter((result) => !result.ok).length;
      return `Checked ${count(results.length)}: ${results.length - failed} working${failed > 0 ? `, ${failed} failed (see the list)` : ''}.`;
    });
  /**
   * Runs `action` at once when nothing is lost (`asked` null), else once the operator confirmed;
   * resolves with whether it ran and succeeded (a field keeps what was typed when not).
   */
  const confirmFirst = (asked: BulkQuestion | null, action: () => Promise<boolean>): Promise<boolean> =>
    asked === null
      ? action()
      : new Promise((resolve) =>
          setQuestion({
            asked,
            answer: (confirmed) => {
              setQuestion(null);
              resolve(confirmed ? action() : false);
            },
          }),
        );
  const logOut = () =>
    run(async () => {
      changed(await api.logOutPanels(signedIn.map((panel) => panel.id)));
      return `Logged out of ${count(signedIn.length)}.`;
    });
  /** A label change; `asked` says what it takes away from some of the panels, when it does. */
  const change = (patch: BulkChange, done: string, asked: BulkQuestion | null = null) =>
    confirmFirst(asked, () =>
      run(async () => {
        changed(await api.updatePanels(ids, patch));
        return done;
      }),
    );
  const remove = () =>
    run(async () => {
      await api.removePanels(ids);
      removed(ids);
      return `Removed ${many}.`;
    });

  // Log out and Remove lose sign-ins (Remove the panels too): whichever way asked for, they ask first.
  // With a production panel among them main asks, its name typed, so the window does not ask too.
  const askLogOut = () => {
    if (signedIn.length > 0) void confirmFirst(signedIn.some((panel) => panel.colour === 'red') ? null : logOutQuestion(panels), logOut);
  };
  const askRemove = () => void confirmFirst(removeQuestion(panels), remove);
  useCommandHandlers({
    logInSelected: logIn,
    checkSelected: () => void check(),
    logOutSelected: askLogOut,
    exportSelected: () => exportPanels(ids),
    removeSelected: askRemove,
    organiseSelected: () => groupInput.current?.focus(),
  });

  return (
    <section className="bulk-view" aria-labelledby="bulk-title" aria-busy={busy}>
      <header className="bulk-header">
        <h1 id="bulk-title">{many} selected</h1>
        <p className="muted">
          {panelNames(panels)}. Shift or Ctrl click in the list changes the selection; Esc there goes back to one panel.
        </p>
      </header>
      <div className="form-actions bulk-actions">
        <button type="button" className="button-primary" disabled={busy} onClick={logIn}>
          {fleetLogInLabel(panels)}
        </button>
        <button
          type="button"
          disabled={busy || signedIn.length === 0}
          onClick={() => void check()}
          title={signedIn.length === 0 ? 'None of them is signed in' : undefined}
        >
          {signedInWords('Check', signedIn.length, panels.length)}
        </button>
        <button type="button" disabled={busy || signedIn.length === 0} onClick={askLogOut}>
          {signedInWords('Log out of', signedIn.length, panels.length)}
          {signedIn.length > 0 && '…'}
        </button>
        <button
          type="button"
          disabled={busy || upgradable.length === 0}
          onClick={upgrade}
          title={upgradable.length === 0 ? 'None of them is signed in with an update out' : 'Upgrade Easypanel in waves'}
        >
          Upgrade {count(upgradable.length)}…
        </button>
        <button type="button" disabled={busy} onClick={() => exportPanels(ids)}>
          Export {many}…
        </button>
        <button type="button" disabled={busy} onClick={() => void share(null)} title="Write them to a new fleet file the team keeps">
          New fleet file of {many}…
        </button>
        {files.map((file) => (
          <button
            key={file.id}
            type="button"
            disabled={busy || file.problem !== null}
            onClick={() => void share(file.id)}
            title={file.path}
          >
            Share {many} in {fleetFileName(file.path)}
          </button>
        ))}
        <button type="button" className="button-danger" disabled={busy} onClick={askRemove}>
          Remove {many}…
        </button>
        <button type="button" onClick={onClear}>
          Select one
        </button>
      </div>
      {error ? (
        <div className="notice notice-error" role="alert">
          <p>{error.message}</p>
        </div>
      ) : (
        <p role="status" className="bulk-outcome">
          {outcome}
        </p>
      )}

      <fieldset className="organise bulk-organise" disabled={busy}>
        <legend>Organise the {many}</legend>
        <BulkField
          label="Move to group"
          hint="Empty takes them out of their groups."
          button="Move"
          inputRef={groupInput}
          list={groups}
          onApply={(text) =>
            change(
              { group: text.trim() === '' ? null : text },
              text.trim() === '' ? `Took ${many} out of their groups.` : `Moved ${many} to ${text.trim()}.`,
              groupQuestion(panels, text.trim() === '' ? null : text.trim()),
            )
          }
        />
        <BulkField
          label="Add tags"
          hint="Separate tags with commas."
          button="Add tags"
          onApply={(text) => change({ addTags: typedTags(text) }, `Tagged ${many}.`)}
          required
        />
        <BulkField
          label="Remove tags"
          hint="Separate tags with commas."
          button="Remove tags"
          onApply={(text) =>
            change({ removeTags: typedTags(text) }, `Removed those tags from ${many}.`, removeTagsQuestion(panels, typedTags(text)))
          }
          required
        />
        <ColourField
          onApply={(colour) =>
            change(
              { colour },
              colour ? `Coloured ${many} ${COLOUR_NAMES[colour].toLowerCase()}.` : `Took the colour off ${many}.`,
              colourQuestion(panels, colour),
            )
          }
        />
        <div className="field">
          <span className="field-label">Favourites</span>
          <div className="field-row">
            <button type="button" onClick={() => void change({ favourite: true }, `Marked ${many} as favourites.`)}>
              Mark as favourites
            </button>
            <button type="button" onClick={() => void change({ favourite: false }, `Unmarked ${many}.`, unmarkQuestion(panels))}>
              Unmark
            </button>
          </div>
        </div>
      </fieldset>

      {question && (
        <ConfirmDialog
          title={question.asked.title}
          confirmLabel={question.asked.confirmLabel}
          busy={busy}
          effect={question.asked.effect}
          onCancel={() => question.answer(false)}
          onConfirm={() => question.answer(true)}
        />
      )}
    </section>
  );
}

interface BulkFieldProps {
  label: string;
  hint: string;
  button: string;
  list?: readonly string[];
  /** Empty text is not applied. */
  required?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  /** Whether it was applied: the text stays when not, to be fixed. */
  onApply(text: string): Promise<boolean>;
}

/** One labelled text box and its button, applied on Enter too. */
function BulkField({ label, hint, button, list, required = false, inputRef, onApply }: BulkFieldProps) {
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (required && text.trim() === '') return;
    void onApply(text).then((applied) => applied && setText(''));
  };
  return (
    <form onSubmit={submit}>
      <TextField
        ref={inputRef}
        label={label}
        hint={hint}
        value={text}
        suggestions={list}
        onChange={(event) => setText(event.target.value)}
        action={
          <button type="submit" disabled={required && text.trim() === ''}>
            {button}
          </button>
        }
      />
    </form>
  );
}

function ColourField({ onApply }: { onApply(colour: PanelColour | null): Promise<boolean> }): ReactNode {
  const [colour, setColour] = useState<PanelColour | ''>('');
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        Colour
      </label>
      <div className="field-row">
        <select id={id} value={colour} onChange={(event) => setColour(event.target.value as PanelColour | '')}>
          <ColourOptions />
        </select>
        <button type="button" onClick={() => void onApply(colour === '' ? null : colour)}>
          Set colour
        </button>
      </div>
    </div>
  );
}
