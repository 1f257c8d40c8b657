import { onTestFinished, vi, type MockInstance } from 'vitest';

/**
 * Gives Leaflet's map containers a size, for the rest of the file. Leaflet does initialise in
 * happy-dom (the base layer, panes and markers are built), but happy-dom does no layout: every
 * element measures 0×0, so the map's box would be a single point. A size is all the controller
 * needs to ask for a real bbox and place the markers; drawing itself (tiles, marker positions on
 * the screen) is left to the Playwright suites.
 */
export function sizeLeafletContainers(width: number, height: number): void {
  for (const [name, size] of [
    ['clientWidth', width],
    ['clientHeight', height],
  ] as const) {
    const original = Object.getOwnPropertyDescriptor(Element.prototype, name)!;
    Object.defineProperty(HTMLElement.prototype, name, {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('leaflet-container') ? size : original.get!.call(this);
      },
    });
  }
}

/** The map's requests to /api/v1/map since watchMapRequests(), and the spy behind them. */
export interface MapRequests {
  (): URL[];
  /** The spy on the page's fetch, e.g. to wait for the last answer. */
  spy: MockInstance<typeof fetch>;
}

/**
 * Watches the page's fetch for the map's requests, until the end of the test. The calls still
 * go to the real server: the spy only records them.
 */
export function watchMapRequests(): MapRequests {
  const spy = vi.spyOn(window, 'fetch');
  onTestFinished(() => spy.mockRestore());
  const requests = () =>
    spy.mock.calls
      .map((c) => new URL(c[0] instanceof Request ? c[0].url : String(c[0])))
      .filter((u) => u.pathname === '/api/v1/map');
  return Object.assign(requests, { spy });
}
