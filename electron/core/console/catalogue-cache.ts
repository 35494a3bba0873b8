import { createHash } from 'node:crypto';
import type { Catalogue } from '../../../shared/operations-console.ts';
import { HIDDEN_SECRET } from '../../../shared/types.ts';
import type { TextCleaner } from '../easypanel/catalogue-schemas.ts';
import { type CatalogueEntry, type ReadCatalogue, readCatalogue } from '../easypanel/operation-catalogue.ts';
import { fetchCatalogueText } from '../easypanel/operation-call.ts';
import { findVersion } from '../easypanel/panel-calls.ts';
import type { RequestSettings } from '../easypanel/panel-endpoints.ts';
import { hasOpaqueRun, secretMatcher } from '../secrets/secret-match.ts';
import type { SignedIn } from '../sign-in/with-token.ts';

/**
 * Each panel's own catalogue of operations (its `/api/openapi.json`), read with its token and kept
 * per panel, address and version: what the API console calls, and what the features Paneldeck
 * relies on are found in (feature-methods.ts). One read at a time per panel; panels serving the
 * same catalogue text share one parse.
 */
export interface CachedCatalogue {
  baseUrl: string;
  /** The version the check history knew when it was read (the cache key); the catalogue's own may have been read then. */
  knownVersion: string | null;
  catalogue: Catalogue;
  byName: Map<string, CatalogueEntry>;
}

export class PanelCatalogues {
  readonly #request: RequestSettings;
  readonly #now: () => Date;
  readonly #cache = new Map<string, CachedCatalogue>();
  readonly #reading = new Map<string, Promise<CachedCatalogue>>();
  readonly #parsed = new ParsedCatalogues();
  #freshReads = 0;

  constructor(request: RequestSettings, now: () => Date) {
    this.#request = request;
    this.#now = now;
  }

  /** The panel's catalogue if it was read already for its address and version; never a request. */
  known(held: SignedIn): CachedCatalogue | null {
    const cached = this.#cache.get(held.record.id);
    const version = held.state.history.get(held.record.id).panelVersion;
    return cached && cached.baseUrl === held.record.baseUrl && cached.knownVersion === version ? cached : null;
  }

  /** The panel's catalogue, from the cache while its address and version are the same; one read at a time per panel. */
  of(held: SignedIn): Promise<CachedCatalogue> {
    const { record, state } = held;
    const version = state.history.get(record.id).panelVersion;
    const cached = this.#cache.get(record.id);
    if (cached && cached.baseUrl === record.baseUrl && cached.knownVersion === version) return Promise.resolve(cached);
    const pending = this.#reading.get(record.id);
    if (pending) return pending;
    // Removed panels' entries go now and then (every 64th fresh read): at every call it would cost a run of n panels n².
    if (++this.#freshReads % 64 === 0)
      for (const panelId of this.#cache.keys()) if (!state.registry.get(panelId)) this.#cache.delete(panelId);
    const read = this.#readFresh(held, version).finally(() => this.#reading.delete(record.id));
    this.#reading.set(record.id, read);
    return read;
  }

  async #readFresh({ record, token }: SignedIn, knownVersion: string | null): Promise<CachedCatalogue> {
    const holdsToken = secretMatcher([token]);
    // Everything kept from the catalogue is the panel's text: shortened, and never the token or what may encode it.
    const clean = (text: string, max: number) => {
      const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
      return holdsToken(short) || (short.length > 40 && hasOpaqueRun(short, 64)) ? HIDDEN_SECRET : short;
    };
    const text = await fetchCatalogueText(this.#request, record, token);
    // JSON's \u escapes could spell the token unseen in the text: such a catalogue is read for its panel alone.
    const shareable = !holdsToken(text) && !text.includes('\\u');
    const read = await this.#parsed.read(text, shareable ? clean : null, clean);
    // Not checked yet: the catalogue's own word, else the version is read now, so the catalogue says which Easypanel it is of.
    const version = knownVersion ?? read.version ?? (await findVersion(this.#request, record, token).catch(() => null))?.version ?? null;
    const catalogue: Catalogue = {
      panelId: record.id,
      version,
      generation: read.generation,
      readAt: this.#now().toISOString(),
      operations: read.operations.map(({ name, kind, summary, input }) => ({ name, kind, summary, input })),
      skipped: read.skipped,
    };
    const entry = {
      baseUrl: record.baseUrl,
      knownVersion,
      catalogue,
      byName: new Map(read.operations.map((operation) => [operation.name, operation])),
    };
    this.#cache.set(record.id, entry);
    return entry;
  }
}

/** Catalogues parsed lately, by their text's hash: panels of one version serve the same, read once for a run across them. */
class ParsedCatalogues {
  static readonly KEPT = 16;
  readonly #byHash = new Map<string, Promise<ReadCatalogue>>();

  /**
   * `shareable` is the cleaner when the text does not hold the panel's token (then what is made of
   * it is the same for every panel); null reads it for this panel alone with `own`.
   */
  read(text: string, shareable: TextCleaner | null, own: TextCleaner): Promise<ReadCatalogue> {
    if (shareable === null) return readCatalogue(text, own);
    const hash = createHash('sha256').update(text).digest('base64');
    let read = this.#byHash.get(hash);
    if (!read) {
      read = readCatalogue(text, shareable);
      // A refusal is not kept: the next read tries again.
      read.catch(() => this.#byHash.delete(hash));
      this.#byHash.set(hash, read);
      if (this.#byHash.size > ParsedCatalogues.KEPT) this.#byHash.delete(this.#byHash.keys().next().value!);
    }
    return read;
  }
}
