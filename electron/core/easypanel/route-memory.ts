import type { Generation } from '../../../shared/types.ts';

/**
 * Which of a request's routes a panel answered, so that the next call goes there first: a
 * request with several names in a generation (`monitorOld/` before `monitor/` on 2.31–2.32; the
 * server's load) costs its fallback once, not at every check. Kept per panel address and
 * generation, in memory; a remembered route that stops answering (an upgrade) is forgotten and
 * the routes are tried in their order again.
 */
export class RouteMemory {
  readonly #byPanel = new Map<string, Map<object, string>>();

  /** `routes` in the order to try them: the one that answered last first. */
  ordered(baseUrl: string, generation: Generation, request: object, routes: readonly string[]): readonly string[] {
    const known = this.#byPanel.get(key(baseUrl, generation))?.get(request);
    if (known === undefined || known === routes[0] || !routes.includes(known)) return routes;
    return [known, ...routes.filter((route) => route !== known)];
  }

  answered(baseUrl: string, generation: Generation, request: object, route: string): void {
    const panelKey = key(baseUrl, generation);
    const known = this.#byPanel.get(panelKey) ?? new Map<object, string>();
    this.#byPanel.set(panelKey, known);
    known.set(request, route);
  }

  missing(baseUrl: string, generation: Generation, request: object, route: string): void {
    const known = this.#byPanel.get(key(baseUrl, generation));
    if (known?.get(request) === route) known.delete(request);
  }
}

const key = (baseUrl: string, generation: Generation) => `${generation} ${baseUrl}`;
