import type { CoreMethods } from '../context/core-context.ts';
import { driftOf, resolveFeatures } from '../easypanel/panel-features.ts';
import { type TokenCalls, withToken } from '../sign-in/with-token.ts';
import type { CachedCatalogue, PanelCatalogues } from './catalogue-cache.ts';

/** What the features' read uses: the calls with each panel's token, and the panels' catalogues. */
export interface FeatureParts extends TokenCalls {
  catalogues: Pick<PanelCatalogues, 'of'>;
}

/** The features of a panel, found in its own catalogue (easypanel/panel-features.ts); no request beyond the catalogue's read. */
export function featureMethods(parts: FeatureParts): CoreMethods<'getPanelFeatures'> {
  return {
    async getPanelFeatures(panelId) {
      return withToken(parts, panelId, async (held) => {
        const cached = await parts.catalogues.of(held);
        const { catalogue } = cached;
        const listed = listedIn(cached);
        return {
          panelId,
          version: catalogue.version,
          readAt: catalogue.readAt,
          features: resolveFeatures(catalogue.generation, listed),
          drift: driftOf(catalogue.generation, listed),
        };
      });
    },
  };
}

const listedIn = ({ catalogue }: CachedCatalogue) => new Map(catalogue.operations.map(({ name, kind }) => [name, kind]));
