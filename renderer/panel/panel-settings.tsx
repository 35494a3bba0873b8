import { FLEET_FILE_LIMITS } from '../../shared/fleet-file.ts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { UpdatePanelInput } from '../../shared/schemas/schemas.ts';
import { cleanGroup, cleanTags, type PanelColour } from '../../shared/labels.ts';
import { GENERATIONS, type Generation, type Panel } from '../../shared/types.ts';
import { GENERATION_LABELS, GENERATION_PATHS } from '../../shared/generations.ts';
import { useApi, usePanelChanges } from '../window/app-context.tsx';
import { CertificateDetails } from '../sign-in/views.tsx';
import { fieldForError } from '../ui/field-errors.ts';
import { useBusyAction } from '../window/busy-action.ts';
import { ColourOptions } from '../ui/colour-options.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { TextField } from '../ui/text-field.tsx';
import { SaveBar } from '../ui/save-bar.tsx';
import { PlainHttpChoice, typedPlainHttp } from '../ui/plain-http.tsx';

interface PanelSettingsProps {
  panel: Panel;
  /** Log out or Remove asked for from the menu, a shortcut or the palette, until carried out. */
  pending: 'logOut' | 'removePanel' | null;
  onPendingDone(): void;
  /** A log out asked for from elsewhere (row menu, palette, menu) is done: the view shows the log-in form. */
  onLoggedOut(): void;
  /** The groups other panels are in, offered while typing. */
  groups: readonly string[];
  openAdvanced: boolean;
}

interface Draft {
  name: string;
  address: string;
  generation: Generation;
  loginPath: string;
  sessionPath: string;
  tokenField: string;
  allowPlainHttp: boolean;
  group: string;
  /** As typed: tags separated by commas. */
  tags: string;
  colour: PanelColour | '';
  favourite: boolean;
  readOnly: boolean;
  notes: string;
}

const draftOf = (panel: Panel): Draft => ({
  name: panel.name,
  address: panel.address,
  generation: panel.generation,
  loginPath: panel.loginPath,
  sessionPath: panel.sessionPath,
  tokenField: panel.tokenField ?? '',
  allowPlainHttp: panel.allowPlainHttp,
  group: panel.group ?? '',
  tags: panel.tags.join(', '),
  colour: panel.colour ?? '',
  favourite: panel.favourite,
  readOnly: panel.readOnly,
  notes: panel.notes,
});

const typedTags = (text: string) => cleanTags(text.split(','));

/** Each generation's default paths, as main puts them back for an empty field. */
const STYLE_DEFAULTS = GENERATION_PATHS;

/** Only what the operator changed, so an untouched address never signs the panel out. */
function changesBetween(panel: Panel, draft: Draft): UpdatePanelInput {
  const saved = draftOf(panel);
  const patch: UpdatePanelInput = {};
  if (draft.name.trim() !== saved.name) patch.name = draft.name;
  if (draft.address.trim() !== saved.address) patch.address = draft.address;
  if (draft.generation !== saved.generation) patch.generation = draft.generation;
  if (draft.loginPath.trim() !== saved.loginPath) patch.loginPath = draft.loginPath.trim() === '' ? null : draft.loginPath;
  if (draft.sessionPath.trim() !== saved.sessionPath) patch.sessionPath = draft.sessionPath.trim() === '' ? null : draft.sessionPath;
  if (draft.tokenField.trim() !== saved.tokenField) patch.tokenField = draft.tokenField.trim() === '' ? null : draft.tokenField;
  if (draft.allowPlainHttp !== saved.allowPlainHttp) patch.allowPlainHttp = draft.allowPlainHttp;
  if (cleanGroup(draft.group) !== panel.group) patch.group = draft.group;
  const tags = typedTags(draft.tags);
  if (tags.join('\n') !== panel.tags.join('\n')) patch.tags = tags;
  if ((draft.colour || null) !== panel.colour) patch.colour = draft.colour || null;
  if (draft.favourite !== panel.favourite) patch.favourite = draft.favourite;
  if (draft.readOnly !== panel.readOnly) patch.readOnly = draft.readOnly;
  if (draft.notes !== panel.notes) patch.notes = draft.notes;
  return patch;
}

const ADVANCED_FIELDS = new Set(['generation', 'loginPath', 'sessionPath', 'tokenField']);

export function PanelSettings({ panel, pending, onPendingDone, onLoggedOut, groups, openAdvanced }: PanelSettingsProps) {
  const api = useApi();
  const changes = usePanelChanges();
  const onChanged = (updated: Panel) => changes.changed([updated]);
  const [draft, setDraft] = useState(() => draftOf(panel));
  const { busy, error, run } = useBusyAction();
  const [saved, setSaved] = useState(false);
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const patch = changesBetween(panel, draft);
  const changed = Object.keys(patch).length > 0;
  const field = error ? fieldForError(error) : null;
  /** One field of the draft changed: "Saved." no longer holds. */
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setSaved(false);
  };
  const checkbox = (name: 'favourite' | 'readOnly', label: string) => (
    <label className="checkbox">
      <input type="checkbox" name={name} checked={draft[name]} onChange={(event) => set(name, event.target.checked)} />
      <span>{label}</span>
    </label>
  );

  const edit =
    (key: 'name' | 'address' | 'loginPath' | 'sessionPath' | 'tokenField' | 'group' | 'tags') => (event: { target: { value: string } }) =>
      set(key, event.target.value);

  const accountStatus = useRef<HTMLParagraphElement>(null);

  /** `requested`: asked for from the row menu, the palette or the menu, which then leave the settings. */
  const logOut = (requested = false) =>
    void run(async () => {
      onChanged(await api.logOut(panel.id));
      if (requested) return onLoggedOut();
      // The button is disabled now; the line that says "Signed out." takes the focus.
      requestAnimationFrame(() => accountStatus.current?.focus());
    });
  // Read by the effect below, which runs once per request, not when these change.
  const current = useRef({ logOut, onPendingDone, signedIn: panel.signedIn });
  current.current = { logOut, onPendingDone, signedIn: panel.signedIn };
  useEffect(() => {
    if (pending === null) return;
    current.current.onPendingDone();
    if (pending === 'removePanel') setConfirmingRemove(true);
    else if (current.current.signedIn) current.current.logOut(true);
  }, [pending]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return;
    void run(async () => {
      const updated = await api.updatePanel(panel.id, patch);
      onChanged(updated);
      setDraft(draftOf(updated));
      setSaved(true);
    });
  };

  return (
    <div className="settings">
      <form className="card" onSubmit={save} noValidate aria-labelledby="settings-title">
        <h2 id="settings-title" tabIndex={-1}>
          Panel settings
        </h2>
        <TextField label="Name" name="name" value={draft.name} onChange={edit('name')} error={field === 'name' ? error?.message : null} />
        <TextField
          label="Address"
          name="address"
          value={draft.address}
          onChange={edit('address')}
          hint={panel.signedIn ? 'Changing the address logs you out of this panel.' : undefined}
          error={field === 'address' ? error?.message : null}
        />
        {(typedPlainHttp(draft.address) || panel.allowPlainHttp) && (
          <PlainHttpChoice checked={draft.allowPlainHttp} onChange={(allowPlainHttp) => set('allowPlainHttp', allowPlainHttp)} />
        )}
        <fieldset className="organise">
          <legend>Organise</legend>
          <TextField
            label="Group"
            name="group"
            suggestions={groups}
            value={draft.group}
            onChange={edit('group')}
            hint="Panels of one group are listed together, e.g. one client or one region."
            error={field === 'group' ? error?.message : null}
          />
          <TextField
            label="Tags"
            name="tags"
            value={draft.tags}
            onChange={edit('tags')}
            placeholder="e.g. eu, billing"
            hint="Separated by commas. Search finds panels by their tags."
            error={field === 'tags' ? error?.message : null}
          />
          <label className="field">
            <span className="field-label">Colour</span>
            <select name="colour" value={draft.colour} onChange={(event) => set('colour', event.target.value as PanelColour | '')}>
              <ColourOptions />
            </select>
            <span className="field-hint">A stripe along the panel in the list and along its header. Red marks production.</span>
          </label>
          {checkbox('favourite', 'Favourite: pinned at the top of the list')}
          {checkbox(
            'readOnly',
            "Read-only: look, don't touch. Paneldeck plans no write for it (actions, console writes, upgrades, backups).",
          )}
          <label className="field">
            <span className="field-label">Notes</span>
            <textarea
              name="notes"
              rows={3}
              maxLength={FLEET_FILE_LIMITS.notesLength}
              value={draft.notes}
              onChange={(event) => set('notes', event.target.value)}
            />
            <span className="field-hint">The team's notes on the panel (who is on call, what is special); shared in its fleet file.</span>
          </label>
        </fieldset>
        <details className="advanced" open={openAdvanced || panel.generation === 'trpc' || (field !== null && ADVANCED_FIELDS.has(field))}>
          <summary>Advanced</summary>
          <div className="advanced-fields">
            <label className="field">
              <span className="field-label">Generation</span>
              <select
                name="generation"
                value={draft.generation}
                onChange={(event) => set('generation', event.target.value as Generation)}
                aria-describedby="generation-hint"
              >
                {GENERATIONS.map((generation) => (
                  <option key={generation} value={generation}>
                    {GENERATION_LABELS[generation]}
                  </option>
                ))}
              </select>
              <span id="generation-hint" className="field-hint">
                {panel.generation === 'public'
                  ? 'Paneldeck switches to an older form by itself when a log in finds only that one.'
                  : `This panel speaks the API of ${GENERATION_LABELS[panel.generation]}. Paneldeck switches by itself when a log in finds only that form.`}
              </span>
            </label>
            <TextField
              label="Login path"
              name="loginPath"
              placeholder={STYLE_DEFAULTS[draft.generation].login}
              value={draft.loginPath}
              onChange={edit('loginPath')}
              hint={`Appended to ${panel.baseUrl}. Leave empty for ${STYLE_DEFAULTS[draft.generation].login}.`}
              error={field === 'loginPath' ? error?.message : null}
            />
            <TextField
              label="Session path"
              name="sessionPath"
              placeholder={STYLE_DEFAULTS[draft.generation].session}
              value={draft.sessionPath}
              onChange={edit('sessionPath')}
              hint={`Read with GET and the token. Leave empty for ${STYLE_DEFAULTS[draft.generation].session}.`}
              error={field === 'sessionPath' ? error?.message : null}
            />
            <TextField
              label="Token field"
              name="tokenField"
              placeholder="Found automatically"
              value={draft.tokenField}
              onChange={edit('tokenField')}
              hint="Where the login answer holds the token, as a dot path like data.auth.token. Leave empty to look in the usual places."
              error={field === 'tokenField' ? error?.message : null}
            />
          </div>
        </details>
        <SaveBar
          error={error && field === null ? error.message : null}
          saved={saved}
          disabled={busy || !changed}
          label="Save changes"
          primary
        />
      </form>

      {panel.trustedCertificate && (
        <section className="card" aria-labelledby="certificate-title">
          <h2 id="certificate-title">Trusted certificate</h2>
          <p className="muted">
            You trusted this certificate for this panel. Paneldeck accepts this panel with exactly this certificate, and refuses any other
            until you trust it too.
          </p>
          <CertificateDetails certificate={panel.trustedCertificate} title="The trusted certificate" />
          <div className="form-actions">
            <button type="button" disabled={busy} onClick={() => void run(async () => onChanged(await api.forgetCertificate(panel.id)))}>
              Forget this certificate
            </button>
          </div>
        </section>
      )}

      <section className="card" aria-labelledby="account-title">
        <h2 id="account-title">Account</h2>
        <p className="muted" ref={accountStatus} tabIndex={-1}>
          {!panel.signedIn
            ? 'Signed out.'
            : panel.tokenKind === 'api-token'
              ? 'Signed in with an API token: it stays valid until it is revoked in Easypanel, also after you log out here.'
              : `Signed in${panel.lastEmail ? ` as ${panel.lastEmail}` : ''}.`}{' '}
          {panel.tokenStorage === 'keyring' && 'The token is saved encrypted by your system’s secure storage.'}
          {panel.tokenStorage === 'weak' &&
            'The token is saved on disk with weak protection (no keyring on this system), as chosen in Preferences.'}
          {panel.tokenStorage === 'memory' && 'The token is kept in memory only: no secure storage on this system.'}
        </p>
        <div className="form-actions">
          <button type="button" disabled={busy || !panel.signedIn} onClick={() => logOut()}>
            Log out
          </button>
          <button type="button" className="button-danger" disabled={busy} onClick={() => setConfirmingRemove(true)}>
            Remove panel…
          </button>
        </div>
      </section>

      {confirmingRemove && (
        <ConfirmDialog
          title={`Remove ${panel.name}?`}
          confirmLabel="Remove panel"
          busy={busy}
          onCancel={() => setConfirmingRemove(false)}
          effect={
            <p>Paneldeck forgets this panel and its saved sign-in. The panel itself is not changed; you can add it again at any time.</p>
          }
          onConfirm={() =>
            void run(async () => {
              // Close first: a failure is then shown on the settings page, not behind the dialog.
              setConfirmingRemove(false);
              await api.removePanel(panel.id);
              changes.removed([panel.id]);
            })
          }
        />
      )}
    </div>
  );
}
