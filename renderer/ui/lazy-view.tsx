import { type ComponentType, createElement, lazy, type ReactNode, Suspense, useState } from 'react';

/**
 * A view's code could not be fetched or run (a file of the build missing or changed since the
 * window loaded, as after an update on disk). The error boundary tells it apart from a view that
 * failed to render: trying the render again cannot help, only reloading the window can.
 */
export class ViewLoadFailure extends Error {
  /** What could not be loaded, for the operator: "the Backups view". */
  readonly what: string;
  constructor(what: string, cause: unknown) {
    super(`Could not load ${what}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ViewLoadFailure';
    this.what = what;
  }
}

/**
 * What stands in the view's place while its code loads: `view` says "Loading…" (a page or a tab,
 * where an empty space would look broken); `none` shows nothing (a dialog, which opens over the
 * window once its code is there, so nothing in the window moves meanwhile); or a stand-in of the
 * view's own, given the view's props (the palette's, which keeps what is typed before it arrives).
 */
export type LoadingShown<Props> = 'view' | 'none' | ((props: Props) => ReactNode);

export interface LazyViewOptions<Props> {
  loading?: LoadingShown<Props>;
  /** Warmed before the others: a view the keyboard opens and types into at once (the palette). */
  warmFirst?: boolean;
}

/** Every lazy view's loader, in the order warmed once the window is idle: one at a time. */
const loaders: Array<() => Promise<unknown>> = [];

/**
 * A view whose code is not in the window's first bundle: fetched when it is first shown (or
 * sooner, by warmLazyViews), so the start parses only what the first screen needs. `load` must
 * be a literal `import()` of the view's own file for the bundler to split it off. A failure to
 * load throws a ViewLoadFailure to the nearest ErrorBoundary, which says to reload the window.
 */
export function lazyView<Props extends object>(
  what: string,
  load: () => Promise<ComponentType<Props>>,
  { loading = 'view', warmFirst = false }: LazyViewOptions<Props> = {},
): (props: Props) => ReactNode {
  // One fetch however many times it is asked for: the warm-up's and the first render's are one.
  let loaded: Promise<{ default: ComponentType<Props> }> | null = null;
  /** The view itself once its code is here: rendered straight, with no suspending at all. */
  let ready: ComponentType<Props> | null = null;
  const start = () => {
    loaded ??= load().then(
      (component) => {
        ready = component;
        return { default: component };
      },
      (error: unknown) => {
        // Asked again (the warm-up, then the render) it must fail again, not hang.
        throw new ViewLoadFailure(what, error);
      },
    );
    return loaded;
  };
  const warm = () => start().catch(() => undefined);
  if (warmFirst) loaders.unshift(warm);
  else loaders.push(warm);
  const Loaded = lazy(start);
  const viewLoading = (
    <p className="muted lazy-view-loading" role="status">
      Loading…
    </p>
  );
  // biome-ignore lint/correctness/noComponentHookFactories: made once per view, when its door module loads (as lazy() itself is), never in a render
  function LazyView(props: Props): ReactNode {
    // Warmed before it was shown: no Suspense, so no fallback flashes and nothing typed meanwhile
    // is lost (React keeps a fallback it committed a while before revealing what replaced it).
    // Decided once for each showing: a tree that changed shape later would start the view afresh.
    // (An initialiser: a component handed to useState as such would be called as one.)
    const [warmed] = useState(() => ready);
    if (warmed) return createElement(warmed, props);
    const fallback = loading === 'view' ? viewLoading : loading === 'none' ? null : loading(props);
    return <Suspense fallback={fallback}>{createElement(Loaded, props)}</Suspense>;
  }
  LazyView.displayName = `Lazy(${what})`;
  return LazyView;
}

/** How long the warm-up waits for an idle moment before it loads the next view anyway. */
const IDLE_TIMEOUT_MS = 2_000;

/**
 * Fetches the lazy views' code in the background after the first screen has rendered, one view
 * an idle moment, so their first opening is quick without the start's work growing: each is a
 * small task of its own, none queued behind another. Returns a stop for when the window goes.
 */
export function warmLazyViews(): () => void {
  let stopped = false;
  let handle: number | null = null;
  let next = 0;
  const step = () => {
    handle = null;
    const loader = loaders[next++];
    if (stopped || !loader) return;
    void loader().then(() => {
      if (!stopped) handle = requestIdleCallback(step, { timeout: IDLE_TIMEOUT_MS });
    });
  };
  handle = requestIdleCallback(step, { timeout: IDLE_TIMEOUT_MS });
  return () => {
    stopped = true;
    if (handle !== null) cancelIdleCallback(handle);
  };
}
