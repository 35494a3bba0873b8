import { useEffect, useState } from 'react';
import { missingFeatureText, type PanelFeatures } from '../../shared/panel-features.ts';
import type { Panel } from '../../shared/types.ts';
import { useApi } from '../window/app-context.tsx';

/** Where the window remembers which panels' notices were dismissed, and at which version: shown once per version. */
const DISMISSED_KEY = 'paneldeck.featureNotices';

function dismissedVersions(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(DISMISSED_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function dismiss(panelId: string, version: string): void {
  try {
    const kept = dismissedVersions();
    kept[panelId] = version;
    // A fleet's worth of panels at most: a few hundred KiB.
    const entries = Object.entries(kept).slice(-10_000);
    window.localStorage.setItem(DISMISSED_KEY, JSON.stringify(Object.fromEntries(entries)));
  } catch {
    // Without the window's storage the notice shows again next time: nothing lost.
  }
}

/**
 * What the panel's own catalogue says it lacks of what Paneldeck builds on (`getPanelFeatures`),
 * once per Easypanel version until dismissed: features it has no operation for, and requests
 * Paneldeck sends that the catalogue does not list (drift). Nothing when the catalogue cannot be
 * read: the panel's views say their own failures.
 */
export function FeaturesNotice({ panel }: { panel: Panel }) {
  const api = useApi();
  const [features, setFeatures] = useState<PanelFeatures | null>(null);
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    let current = true;
    setFeatures(null);
    setHidden(false);
    api.getPanelFeatures(panel.id).then(
      (read) => current && setFeatures(read),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, panel.id]);
  if (!features || hidden) return null;
  const version = features.version ?? 'unknown';
  if (dismissedVersions()[panel.id] === version) return null;
  const missing = features.features.filter((feature) => !feature.available);
  if (missing.length === 0 && features.drift.length === 0) return null;
  return (
    <section className="card features-notice" aria-labelledby={`features-${panel.id}`}>
      <h3 id={`features-${panel.id}`}>
        {features.version ? `Easypanel ${features.version}` : 'This Easypanel'}, as its own catalogue lists it
      </h3>
      <ul>
        {missing.map((feature) => (
          <li key={feature.id}>{missingFeatureText(feature)}</li>
        ))}
        {features.drift.map((line) => (
          <li key={`${line.doing} ${line.names.join(' ')}`}>
            {line.problem === 'missing'
              ? `It does not list ${line.names.join(' or ')}, which Paneldeck uses for ${line.doing}.`
              : `It lists ${line.names.join(' or ')} another way than Paneldeck sends it (${line.doing}).`}
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() => {
          dismiss(panel.id, version);
          setHidden(true);
        }}
      >
        Dismiss until the next version
      </button>
    </section>
  );
}
