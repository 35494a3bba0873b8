import type { FleetConflictChoice } from '../../../shared/schemas/schemas.ts';
import { randomUUID } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { PanelError } from '../../../shared/contract/errors.ts';
import type { PanelEvent } from '../../../shared/contract/events.ts';
import {
  FLEET_FILE_FORMAT,
  FLEET_FILE_SUFFIX,
  FLEET_FILE_VERSION,
  fleetFileName,
  type FleetDocument,
  type FleetFileInfo,
  type FleetFilePanel,
} from '../../../shared/fleet-file.ts';
import { normaliseAddress } from '../common/address.ts';
import { isRecord } from '../common/guards.ts';
import { newPanelRecord } from '../panels/new-panel.ts';
import type { DataFolder } from '../storage/data-folder.ts';
import type { DocumentStore } from '../storage/document-store.ts';
import type { PanelRecord, PanelRecordChange } from '../storage/panel-registry.ts';
import { diskFiles, writeAtomically } from '../storage/store-files.ts';
import { readText, signature, withLock } from './fleet-file-io.ts';
import { filePanelOf, pinnedByFingerprint, recordChangeOf } from './fleet-file-records.ts';
import { fleetFileText, readFleetFileInSlices } from './fleet-file-text.ts';
import { type FleetPanels, mergeFleet, samePanel, samePanels } from './fleet-merge.ts';

/**
 * The fleet files this Paneldeck follows: each one's panels in the list (marked with the file),
 * kept in step both ways by a three-way merge (`fleet-merge.ts`) against the file as last read or
 * written here (its base, kept in `fleet-files.json`). A change there (a git pull, a sync) is seen
 * within seconds (the folder watched, the file polled as the fallback) and applied here; a change
 * here to a shared field, an added or removed panel, is written back, the file read again under
 * a lock just before, so that another Paneldeck's change meanwhile is merged, not lost. A file that
 * cannot be read (damaged, a newer format, conflict markers, gone) is never written over: its
 * problem is shown and its panels stay as they were. Nothing of a sign-in ever reaches a file.
 */

export interface FleetFilesParts {
  state(): Promise<DataFolder>;
  now(): Date;
  emit(event: PanelEvent): void;
  /** Where the followed files and their bases are kept (`fleet-files.json`). */
  store: DocumentStore;
  /** Tells the window of panels added or changed from a file (the core's batcher). */
  changed(panelId: string): void;
  /** Removes panels the file no longer lists, as the operator's removal does (sign-ins forgotten). */
  removePanels(panelIds: string[]): Promise<void>;
  /** Tells that a panel's pinned certificate changed (the file pinned a panel not signed in). */
  trustChanged(): void;
  /** How often each file is looked at besides the watcher; the app: 2 s. */
  pollMs?: number;
}

interface Followed {
  id: string;
  path: string;
  /** The file as last read or written here, by base URL; null until it was read sound once. */
  base: Map<string, FleetFilePanel> | null;
  readOnly: boolean;
  readAt: string | null;
  problem: string | null;
  conflicts: FleetFileInfo['conflicts'];
  removed: string[];
  trust: FleetFileInfo['trust'];
  /** What the last look at the file saw (size, time, inode): a poll reads it only when this moved. */
  seen: string | null;
  watcher: FSWatcher | null;
}

const STORE_VERSION = 1;

/** A file followed from now, not read yet. */
const followed = (id: string, path: string, base: Followed['base'] = null, readOnly = false): Followed => ({
  id,
  path,
  base,
  readOnly,
  readAt: null,
  problem: null,
  conflicts: [],
  removed: [],
  trust: [],
  seen: null,
  watcher: null,
});

export class FleetFiles {
  readonly #parts: FleetFilesParts;
  readonly #files = new Map<string, Followed>();
  /** One reconcile at a time for all files: each touches the one panel list. */
  #queue: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | null = null;
  #started: Promise<void> | null = null;
  /** Panel events caused by applying a file: not written back to it. */
  #applying = false;
  /** Which file each panel of a file belongs to: a removed panel's record is gone when its event comes. */
  readonly #fileOf = new Map<string, string>();

  constructor(parts: FleetFilesParts) {
    this.#parts = parts;
  }

  /** Loads the followed files and reads each once, then follows them. */
  start(): Promise<void> {
    this.#started ??= (async () => {
      for (const saved of await this.#load()) this.#files.set(saved.id, saved);
      for (const file of this.#files.values()) {
        await this.#reconcile(file);
        this.#follow(file);
      }
      const pollMs = this.#parts.pollMs ?? 2000;
      this.#timer = setInterval(() => void this.#poll(), pollMs);
      this.#timer.unref();
    })();
    return this.#started;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    for (const file of this.#files.values()) file.watcher?.close();
  }

  list(): FleetFileInfo[] {
    return [...this.#files.values()].map((file) => this.#info(file));
  }

  /** Follows the fleet file at `path`: its panels join the list (a panel already here by address joins the file). */
  async open(path: string): Promise<FleetFileInfo> {
    await this.start();
    const known = [...this.#files.values()].find((file) => file.path === path);
    if (known) return this.#info(known);
    const read = await readFleetFileInSlices(await readText(path));
    if (!read.ok) throw new PanelError('INVALID_INPUT', `${read.problem} (${basename(path)})`);
    const file = followed(randomUUID(), path);
    this.#files.set(file.id, file);
    await this.#reconcile(file);
    this.#follow(file);
    return this.#info(file);
  }

  /** Writes a new fleet file at `path` of `panelIds` (the panels move into it) and follows it. */
  async create(path: string, panelIds: readonly string[]): Promise<FleetFileInfo> {
    await this.start();
    if (!path.endsWith(FLEET_FILE_SUFFIX)) path = `${path.replace(/\.json$/i, '')}${FLEET_FILE_SUFFIX}`;
    if ((await readText(path).catch(() => null)) !== null) {
      throw new PanelError(
        'INVALID_INPUT',
        `${basename(path)} already exists: open it instead (Paneldeck does not write over a file it did not write).`,
      );
    }
    const empty: FleetDocument = { format: FLEET_FILE_FORMAT, version: FLEET_FILE_VERSION, readOnly: false, panels: [] };
    await writeAtomically(diskFiles, path, [fleetFileText(empty)], 0o644);
    const file = await this.open(path);
    await this.share(panelIds, file.id);
    return this.#info(this.#files.get(file.id)!);
  }

  /** Moves panels of this machine into the file (written back at once); a panel of another file is refused. */
  async share(panelIds: readonly string[], fileId: string): Promise<FleetFileInfo> {
    const file = this.#files.get(fileId);
    if (!file) throw new PanelError('NOT_FOUND', 'That fleet file is no longer followed here.');
    if (file.problem) throw new PanelError('INVALID_INPUT', `Nothing was written: ${file.problem}`);
    const state = await this.#parts.state();
    const records = panelIds.flatMap((id) => state.registry.get(id) ?? []);
    const elsewhere = records.find((record) => record.fleetFile !== null && record.fleetFile !== fileId);
    if (elsewhere)
      throw new PanelError('INVALID_INPUT', `${elsewhere.name} is shared in another fleet file: take it out of that one first.`);
    this.#applying = true;
    try {
      // One write of the list for the whole selection.
      await state.registry.updateMany(new Map(records.map((record) => [record.id, { fleetFile: fileId }])));
      for (const record of records) {
        this.#fileOf.set(record.id, fileId);
        this.#parts.changed(record.id);
      }
    } finally {
      this.#applying = false;
    }
    await this.#reconcile(file);
    return this.#info(file);
  }

  /** Stops following the file: its panels stay here, as panels of this machine. */
  async close(fileId: string): Promise<void> {
    const file = this.#files.get(fileId);
    if (!file) return;
    file.watcher?.close();
    this.#files.delete(fileId);
    const state = await this.#parts.state();
    state.fleetFileNames.delete(fileId);
    const records = state.registry.list().filter((one) => one.fleetFile === fileId);
    await state.registry.updateMany(new Map(records.map((record) => [record.id, { fleetFile: null }])));
    for (const record of records) {
      this.#fileOf.delete(record.id);
      this.#parts.changed(record.id);
    }
    await this.#save();
    this.#tell();
  }

  /**
   * Settles a conflict the operator looked at: `here` keeps the value here (written back), `file`
   * takes the file's. Either way the field's base becomes the file's value as read now, so the
   * next merge sees one side changed, not both.
   */
  resolve(fileId: string, { address, field, keep }: FleetConflictChoice): Promise<FleetFileInfo> {
    return this.#onPanelOfFile(fileId, address, async ({ state, file, baseUrl, theirs, record }) => {
      if (!file.conflicts.some((one) => one.address === address && one.field === field)) {
        throw new PanelError(
          'NOT_FOUND',
          'That conflict is settled already (the file or the panel changed since): look at the file again.',
        );
      }
      const base = file.base ?? new Map<string, FleetFilePanel>();
      // A panel added on both sides has no base yet: the file's entry is its base from now on.
      base.set(baseUrl, { ...(base.get(baseUrl) ?? theirs), [field]: theirs[field] });
      file.base = base;
      if (keep === 'here') return;
      const wanted = { ...filePanelOf(record, base.get(baseUrl), file.readOnly), [field]: theirs[field] };
      this.#applying = true;
      try {
        await state.registry.update(record.id, recordChangeOf(wanted, file.readOnly));
        this.#parts.changed(record.id);
      } finally {
        this.#applying = false;
      }
    });
  }

  /**
   * Takes the file's pin for a signed-in panel the operator compared (`FleetFileInfo.trust`): the
   * panel's token goes only to that certificate from now on (none pinned: the system's trust).
   */
  trustPin(fileId: string, address: string): Promise<FleetFileInfo> {
    return this.#onPanelOfFile(fileId, address, async ({ state, file, theirs, record }) => {
      // Only the pin the operator was shown: one changed in the file since is shown again first.
      const asked = file.trust.find((one) => one.address === address);
      if (!asked || asked.fileSha256 !== theirs.certificateSha256) {
        throw new PanelError('CHANGED_BEFORE_SENDING', 'Not trusted: the file changed since it was shown. Look at its pin again.');
      }
      const sha256 = theirs.certificateSha256;
      await state.registry.update(record.id, { trustedCertificate: sha256 === null ? null : pinnedByFingerprint(sha256) });
      this.#parts.changed(record.id);
      this.#parts.trustChanged();
    });
  }

  /**
   * Runs `change` on a panel of the file by its address, as the file is now (read afresh), in the
   * queue with the merges; then merges at once and answers the file as it is after.
   */
  #onPanelOfFile(
    fileId: string,
    address: string,
    change: (on: { state: DataFolder; file: Followed; baseUrl: string; theirs: FleetFilePanel; record: PanelRecord }) => Promise<void>,
  ): Promise<FleetFileInfo> {
    const file = this.#files.get(fileId);
    if (!file) return Promise.reject(new PanelError('NOT_FOUND', 'That fleet file is no longer followed here.'));
    return this.#queued(async () => {
      const state = await this.#parts.state();
      const there = await this.#readThere(file);
      if (!there) throw new PanelError('INVALID_INPUT', `Nothing was changed: ${file.problem ?? 'the file cannot be read.'}`);
      const found = [...there.panels].find(([, panel]) => panel.address === address);
      const record = found && state.registry.list().find((one) => one.fleetFile === file.id && one.baseUrl === found[0]);
      if (!found || !record) throw new PanelError('NOT_FOUND', `The file no longer has ${address} among its panels here.`);
      await change({ state, file, baseUrl: found[0], theirs: found[1], record });
      await this.#mergeOnce(file);
      return this.#info(file);
    });
  }

  /** The core's panel events: a change to a panel of a file is written back to it. */
  panelEvent(event: PanelEvent): void {
    if (this.#applying) return;
    const fileIds = new Set<string>();
    // A panel's check or sign-in changes it too: only a change to what the file shares is written back.
    if (event.type === 'panelsChanged')
      for (const panel of event.panels) {
        const file = panel.fleetFile === null ? undefined : this.#files.get(panel.fleetFile);
        const base = file?.base?.get(panel.baseUrl);
        if (file && !(base && samePanel(filePanelOf(panel, base, file.readOnly), base))) fileIds.add(file.id);
      }
    if (event.type === 'panelsRemoved') for (const id of event.panelIds) if (this.#fileOf.has(id)) fileIds.add(this.#fileOf.get(id)!);
    for (const fileId of fileIds) {
      const file = this.#files.get(fileId);
      if (file) void this.#reconcile(file);
    }
  }

  /** Reads the file again when it moved (the watcher's notice, or a poll that saw it change). */
  async #poll(): Promise<void> {
    for (const file of this.#files.values()) {
      const seen = await signature(file.path);
      if (seen !== file.seen) await this.#reconcile(file);
    }
  }

  #follow(file: Followed): void {
    try {
      // The folder, not the file: a file replaced by a rename (an atomic write, git) is another inode.
      file.watcher = watch(dirname(file.path), { persistent: false }, (_event, name) => {
        if (name === null || name === basename(file.path)) void this.#reconcile(file);
      });
      file.watcher.on('error', () => file.watcher?.close());
    } catch {
      // No watcher here (a network folder): the poll follows it.
    }
  }

  /** One merge of the file with the list, one at a time: read, merge, apply here, and write back when this side changed. */
  #reconcile(file: Followed): Promise<void> {
    return this.#queued(() => this.#mergeOnce(file));
  }

  /** Runs `work` after every merge and settle asked before it, one at a time: each touches the one panel list. */
  #queued<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #mergeOnce(file: Followed): Promise<void> {
    if (!this.#files.has(file.id)) return;
    const state = await this.#parts.state();
    if (!state.fleetFileNames.has(file.id)) {
      // Its panels show the file by name from now on (a panel listed before the file was followed again at start too).
      state.fleetFileNames.set(file.id, fleetFileName(file.path));
      for (const record of state.registry.list()) if (record.fleetFile === file.id) this.#parts.changed(record.id);
    }
    const first = await this.#readThere(file);
    if (!first) return this.#tell();
    let merge = mergeFleet(file.base ?? new Map(), this.#here(state, file), first.panels);
    if (merge.writeBack) {
      // Written back under the lock, the file read again first: another Paneldeck's change meanwhile is merged too.
      const written = await withLock(file.path, async () => {
        const again = await this.#readThere(file);
        if (!again) return false;
        merge = mergeFleet(file.base ?? new Map(), this.#here(state, file), again.panels);
        first.readOnly = again.readOnly;
        if (!merge.writeBack) return true;
        const panels = [...merge.file.values()];
        await writeAtomically(
          diskFiles,
          file.path,
          [fleetFileText({ format: FLEET_FILE_FORMAT, version: FLEET_FILE_VERSION, readOnly: again.readOnly, panels })],
          0o644,
        );
        file.seen = await signature(file.path);
        return true;
      });
      if (!written) return this.#tell();
    }
    // The base kept on disk is written again only when it moved: most reads (a poll, a check's notice) change nothing.
    const moved = file.base === null || file.readOnly !== first.readOnly || !samePanels(file.base, merge.nextBase);
    file.readOnly = first.readOnly;
    await this.#apply(state, file, merge);
    file.base = merge.nextBase;
    file.readAt = this.#parts.now().toISOString();
    file.problem = null;
    if (moved) await this.#save();
    this.#tell();
  }

  /** The file now, by base URL; null (with its problem kept) when it cannot be read as a fleet file. */
  async #readThere(file: Followed): Promise<{ panels: FleetPanels; readOnly: boolean } | null> {
    file.seen = await signature(file.path);
    let text: string;
    try {
      text = await readText(file.path);
    } catch {
      file.problem = `The fleet file ${basename(file.path)} cannot be read (moved, deleted, or not allowed): its panels stay as they were. Put it back, or stop following it.`;
      return null;
    }
    const read = await readFleetFileInSlices(text);
    if (!read.ok) {
      file.problem = `${read.problem} Paneldeck does not write over it; its panels stay as they were.`;
      return null;
    }
    const panels = new Map(read.document.panels.map((panel, index) => [read.baseUrls[index]!, panel]));
    return { panels, readOnly: read.document.readOnly };
  }

  /** The file's panels as they are here: the shared fields of each record, what only the file holds from its base. */
  #here(state: DataFolder, file: Followed): Map<string, FleetFilePanel> {
    const here = new Map<string, FleetFilePanel>();
    for (const record of state.registry.list()) {
      if (record.fleetFile !== file.id) continue;
      this.#fileOf.set(record.id, file.id);
      here.set(record.baseUrl, filePanelOf(record, file.base?.get(record.baseUrl), file.readOnly));
    }
    // Removed here since the last merge: gone from `here`, so the merge takes them out of the file.
    return here;
  }

  async #apply(state: DataFolder, file: Followed, merge: ReturnType<typeof mergeFleet>): Promise<void> {
    this.#applying = true;
    const trust: FleetFileInfo['trust'] = [];
    let pinned = false;
    /**
     * The file's pin for a record: taken for a panel not signed in (nothing of it is at stake
     * yet); for a signed-in one only when it is the pin already trusted here, else asked about.
     */
    const pinOf = (record: PanelRecord | undefined, panel: FleetFilePanel): PanelRecordChange => {
      const here = record?.trustedCertificate?.sha256 ?? null;
      if (panel.certificateSha256 === here) return {};
      if (record && state.vault.token(record.id, record.baseUrl) !== undefined) {
        trust.push({ panelName: record.name, address: panel.address, fileSha256: panel.certificateSha256 });
        return {};
      }
      pinned = true;
      return { trustedCertificate: panel.certificateSha256 === null ? null : pinnedByFingerprint(panel.certificateSha256) };
    };
    try {
      const byBase = new Map(state.registry.list().map((record) => [record.baseUrl, record]));
      // One write for the whole read: a file of ten thousand panels lands whole, not one panel a write.
      const additions: PanelRecord[] = [];
      const changes = new Map<string, PanelRecordChange>();
      const change = (id: string, next: PanelRecordChange) => changes.set(id, { ...changes.get(id), ...next });
      for (const panel of merge.added) {
        const { baseUrl, display } = normaliseAddress(panel.address, { allowPlainHttp: panel.allowPlainHttp });
        const existing = byBase.get(baseUrl);
        if (existing) {
          change(existing.id, { ...recordChangeOf(panel, file.readOnly), ...pinOf(existing, panel), fleetFile: file.id });
          this.#fileOf.set(existing.id, file.id);
          continue;
        }
        const record = newPanelRecord({ baseUrl, display, ...recordChangeOf(panel, file.readOnly) }, this.#parts.now().toISOString());
        additions.push({ ...record, ...pinOf(undefined, panel), fleetFile: file.id });
        this.#fileOf.set(record.id, file.id);
      }
      for (const { baseUrl, change: there } of merge.changed) {
        const record = byBase.get(baseUrl);
        if (!record) continue;
        const changedPanel = { ...filePanelOf(record, undefined, false), ...there };
        change(record.id, {
          ...recordChangeOf(changedPanel, file.readOnly),
          ...('certificateSha256' in there ? pinOf(record, changedPanel) : {}),
        });
      }
      // The whole file made read-only reaches every panel of it.
      if (file.readOnly)
        for (const record of state.registry.list())
          if (record.fleetFile === file.id && !record.readOnly) change(record.id, { readOnly: true });
      if (additions.length > 0 || changes.size > 0) await state.registry.insertAndUpdate(additions, changes);
      for (const id of [...additions.map((record) => record.id), ...changes.keys()]) this.#parts.changed(id);
      const removed = merge.removed.flatMap((baseUrl) => byBase.get(baseUrl) ?? []);
      file.removed = removed.map((record) => record.name);
      if (removed.length > 0) await this.#parts.removePanels(removed.map((record) => record.id));
      for (const record of removed) this.#fileOf.delete(record.id);
      // Asked about until the panel trusts what the file pins: each read says it again.
      for (const record of state.registry.list()) {
        const panel = record.fleetFile === file.id ? merge.file.get(record.baseUrl) : undefined;
        if (
          panel &&
          !trust.some((one) => one.address === panel.address) &&
          panel.certificateSha256 !== (record.trustedCertificate?.sha256 ?? null)
        )
          if (state.vault.token(record.id, record.baseUrl) !== undefined)
            trust.push({ panelName: record.name, address: panel.address, fileSha256: panel.certificateSha256 });
      }
      file.trust = trust;
      file.conflicts = merge.conflicts.map(({ baseUrl, field, here, there }) => ({
        panelName: byBase.get(baseUrl)?.name ?? baseUrl,
        address: merge.file.get(baseUrl)?.address ?? baseUrl,
        field,
        here: JSON.stringify(here),
        there: JSON.stringify(there),
      }));
    } finally {
      this.#applying = false;
      if (pinned) this.#parts.trustChanged();
    }
  }

  #info(file: Followed): FleetFileInfo {
    const panels = [...this.#fileOf.values()].filter((id) => id === file.id).length;
    const { id, path, readOnly, readAt, problem, conflicts, removed, trust } = file;
    return { id, path, panels, readOnly, readAt, problem, conflicts: [...conflicts], removed: [...removed], trust: [...trust] };
  }

  #tell(): void {
    try {
      this.#parts.emit({ type: 'fleetFilesChanged', files: this.list() });
    } catch {
      // A window that is gone does not stop a file being followed.
    }
  }

  async #load(): Promise<Followed[]> {
    const document = this.#parts.store.read();
    if (!isRecord(document) || document.version !== STORE_VERSION || !Array.isArray(document.files)) return [];
    const files: Followed[] = [];
    for (const entry of document.files) {
      if (!isRecord(entry) || typeof entry.id !== 'string' || typeof entry.path !== 'string') continue;
      // The base is kept as the file's own text: read back by the same rules as the file, in slices.
      const read = typeof entry.base === 'string' ? await readFleetFileInSlices(entry.base) : null;
      const base = read?.ok ? new Map(read.document.panels.map((panel, index) => [read.baseUrls[index]!, panel])) : null;
      files.push(followed(entry.id, entry.path, base, read?.ok ? read.document.readOnly : false));
    }
    return files;
  }

  async #save(): Promise<void> {
    const files = [...this.#files.values()].map((file) => ({
      id: file.id,
      path: file.path,
      base: file.base
        ? fleetFileText({
            format: FLEET_FILE_FORMAT,
            version: FLEET_FILE_VERSION,
            readOnly: file.readOnly,
            panels: [...file.base.values()],
          })
        : null,
    }));
    await this.#parts.store.save(null, () => ({ version: STORE_VERSION, files }));
  }
}
