import { waitFor } from '@testing-library/dom';
import {
  afterAll,
  afterEach,
  beforeAll,
  describe,
  expect,
  it,
  vi,
  type MockInstance,
} from 'vitest';
import {
  cityAddress,
  startApiServer,
  useOrigin,
  type ApiServer,
} from '../../__tests__/helpers/apiServer.js';
import { findFrameRoot, stateOf, widgetRoot } from '../../__tests__/helpers/shadow.js';
import { removeElements } from '../../__tests__/helpers/mounts.js';
import '../element.js';

/*
 * The map asks /api/v1/map only when its box, zoom or filters change what it asks for.
 *
 * A resize asks the server again only when it changes the box. Leaflet answers
 * every window resize that moves the centre's pixel with a `moveend` 200 ms later, even when
 * the size has gone back by then: a full-page screenshot (375 px, then back to 1280 px) did
 * that in the e2e suite, and the reload came in the middle of a keyboard walk over the markers.
 *
 * happy-dom does no layout, so Leaflet's container measures `width` × 600 (as in
 * map.behaviour.test.tsx), with `width` changed by the tests. The API is the real server.
 */
let width = 800;
const sized = (name: 'clientWidth' | 'clientHeight', size: () => number) => {
  const original = Object.getOwnPropertyDescriptor(Element.prototype, name)!;
  Object.defineProperty(HTMLElement.prototype, name, {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('leaflet-container') ? size() : original.get!.call(this);
    },
  });
};

let api: ApiServer;

beforeAll(async () => {
  sized('clientWidth', () => width);
  sized('clientHeight', () => 600);
  api = await startApiServer();
  useOrigin(api.url);
  await api.addService({
    name: 'Кав’ярня «Лісабон»',
    ...cityAddress(38.7223, -9.1393, 'Lisboa', 'PT'),
  });
  await api.addService({ name: 'СТО «Прага»', ...cityAddress(50.076, 14.439, 'Praha', 'CZ') });
}, 60_000);

afterAll(async () => {
  await api?.close();
});

let fetchSpy: MockInstance<typeof fetch> | undefined;
afterEach(() => {
  removeElements('poruch-map');
  fetchSpy?.mockRestore();
  fetchSpy = undefined;
  width = 800;
});

/** The map's requests to /api/v1/map so far (the page's fetch, still to the real server). */
const watchMapRequests = () => {
  fetchSpy = vi.spyOn(window, 'fetch');
  const spy = fetchSpy;
  return () =>
    spy.mock.calls
      .map((c) => new URL(c[0] instanceof Request ? c[0].url : String(c[0])))
      .filter((u) => u.pathname === '/api/v1/map');
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The window takes a new width, as a browser does: the container's, then `resize`. */
async function resizeTo(w: number) {
  width = w;
  window.dispatchEvent(new Event('resize'));
  // Leaflet measures again in the next animation frame.
  await new Promise((r) => requestAnimationFrame(r));
  await sleep(20);
}

/**
 * Longer than Leaflet's resize `moveend` (200 ms after the measuring frame) and the map's move
 * debounce (150 ms) together: a reload the resize caused has been sent by then.
 */
const AFTER_RESIZE_MS = 700;

async function mountMap() {
  const el = document.createElement('poruch-map');
  for (const [k, v] of Object.entries({
    'api-base': api.url,
    lang: 'en_GB',
    'tile-url': 'none',
    center: '50,15',
    zoom: '4',
  }))
    el.setAttribute(k, v);
  document.body.append(el);
  const root = await widgetRoot(el);
  await waitFor(() => expect(stateOf(el)).toBe('ready'));
  await waitFor(() => expect(root.querySelector('.poruch-point')).not.toBeNull());
  const shadow = findFrameRoot(el)!;
  return {
    el,
    root,
    marker: (label: string) =>
      root.querySelector<HTMLElement>(`.leaflet-marker-icon[aria-label="${label}"]`),
    focused: () => shadow.activeElement,
  };
}

describe('<poruch-map> on a resize', () => {
  it('asks nothing when the size goes back before the map moved (a full-page screenshot)', async () => {
    const requests = watchMapRequests();
    const map = await mountMap();
    expect(requests()).toHaveLength(1);
    const prague = map.marker('СТО «Прага»')!;
    prague.focus();

    await resizeTo(375);
    await resizeTo(800);
    await sleep(AFTER_RESIZE_MS);

    expect(requests()).toHaveLength(1);
    expect(map.marker('СТО «Прага»')).toBe(prague);
    expect(map.focused()).toBe(prague);
    expect(stateOf(map.el)).toBe('ready');
  });

  it('asks for the new box once when the size does change it', async () => {
    const requests = watchMapRequests();
    await mountMap();
    const [first] = requests();
    const span = (u: URL) => {
      const [west, , east] = u.searchParams.get('bbox')!.split(',').map(Number) as number[];
      return east! - west!;
    };

    await resizeTo(375);
    await waitFor(() => expect(requests()).toHaveLength(2));
    // 375 px at zoom 4 (4096 px around the world) span about 33° of longitude, not 70°.
    expect(span(requests()[1]!)).toBeCloseTo((375 / (256 * 2 ** 4)) * 360, 0);
    expect(span(first!)).toBeCloseTo((800 / (256 * 2 ** 4)) * 360, 0);

    // Back to the first size: a different box from the one drawn, so one more call.
    await resizeTo(800);
    await waitFor(() => expect(requests()).toHaveLength(3));
    expect(requests()[2]!.search).toBe(first!.search);
    await sleep(AFTER_RESIZE_MS);
    expect(requests()).toHaveLength(3);
  });
});

describe('<poruch-map> on new filters', () => {
  const search = (filters: Record<string, string>) =>
    document.dispatchEvent(new CustomEvent('poruch:search', { detail: { channel: '', filters } }));

  it('asks nothing for filters that ask the same, and is ready with the answer it has', async () => {
    const requests = watchMapRequests();
    const map = await mountMap();
    const prague = map.marker('СТО «Прага»')!;
    // The map ignores the search text, and `all` is no category.
    search({ q: 'кав', category: 'all' });
    await waitFor(() => expect(stateOf(map.el)).toBe('ready'));
    await sleep(300);
    expect(stateOf(map.el)).toBe('ready');
    expect(requests()).toHaveLength(1);
    expect(map.marker('СТО «Прага»')).toBe(prague);

    search({ country: 'PT' });
    await waitFor(() => expect(requests()).toHaveLength(2));
    expect(requests()[1]!.searchParams.get('country')).toBe('PT');
    await waitFor(() => expect(map.marker('СТО «Прага»')).toBeNull());
    expect(stateOf(map.el)).toBe('ready');
  });
});
