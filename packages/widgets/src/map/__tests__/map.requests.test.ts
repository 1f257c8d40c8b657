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
 * A hidden map (the list view, a hidden host) is not laid out and measures 0×0. It asks nothing
 * (a box of a single point drew an empty list, then an empty map), and shown again it takes its
 * real size and asks once for the box it then shows.
 *
 * happy-dom does no layout, so Leaflet's container measures `width` × 600 (as in
 * map.behaviour.test.tsx), with `width` changed by the tests, and 0×0, as in a browser, under a
 * `hidden` element (through shadow roots). The API is the real server.
 */
let width = 800;
const laidOut = (el: Node): boolean => {
  for (let n: Node | null = el; n; n = n instanceof ShadowRoot ? n.host : n.parentNode) {
    if (n instanceof HTMLElement && n.hidden) return false;
  }
  return true;
};
const sized = (name: 'clientWidth' | 'clientHeight', size: () => number) => {
  const original = Object.getOwnPropertyDescriptor(Element.prototype, name)!;
  Object.defineProperty(HTMLElement.prototype, name, {
    configurable: true,
    get(this: HTMLElement) {
      if (!this.classList.contains('leaflet-container')) return original.get!.call(this);
      return laidOut(this) ? size() : 0;
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

/** A bounded wait, only where a test proves that no request is sent. */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const frame = () => new Promise((r) => requestAnimationFrame(r));

/** The window takes a new width, as a browser does: the container's, then `resize`. */
async function resizeTo(w: number) {
  width = w;
  window.dispatchEvent(new Event('resize'));
  // Leaflet measures again in the next animation frame; the frame after it has seen the change.
  await frame();
  await frame();
}

/**
 * Longer than Leaflet's resize `moveend` (200 ms after the measuring frame) and the map's move
 * debounce (150 ms) together: a reload the resize caused has been sent by then.
 */
const AFTER_RESIZE_MS = 700;

/** A `<poruch-map>` on the real API, not waited for. */
async function createMap(extra: Record<string, string> = {}) {
  const el = document.createElement('poruch-map');
  for (const [k, v] of Object.entries({
    'api-base': api.url,
    lang: 'en_GB',
    'tile-url': 'none',
    center: '50,15',
    zoom: '4',
    ...extra,
  }))
    el.setAttribute(k, v);
  document.body.append(el);
  const root = await widgetRoot(el);
  const shadow = findFrameRoot(el)!;
  return {
    el,
    root,
    marker: (label: string) =>
      root.querySelector<HTMLElement>(`.leaflet-marker-icon[aria-label="${label}"]`),
    focused: () => shadow.activeElement,
    /** The list view's items. */
    listed: () => Array.from(root.querySelectorAll('.list li')).map((li) => li.textContent),
    /** Switches between the map and the list, as the toolbar's button does. */
    toggle: () => root.querySelector<HTMLButtonElement>('button.toggle')!.click(),
  };
}

/** A `<poruch-map>` in the map view, once it drew its first answer. */
async function mountMap() {
  const map = await createMap();
  await waitFor(() => expect(stateOf(map.el)).toBe('ready'));
  await waitFor(() => expect(map.root.querySelector('.poruch-point')).not.toBeNull());
  return map;
}

/** The longitudes a request's bbox spans. */
const span = (u: URL) => {
  const [west, , east] = u.searchParams.get('bbox')!.split(',').map(Number) as number[];
  return east! - west!;
};
/** What `w` px at zoom 4 (4096 px around the world) span. */
const spanOf = (w: number) => (w / (256 * 2 ** 4)) * 360;

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

    await resizeTo(375);
    await waitFor(() => expect(requests()).toHaveLength(2));
    // 375 px at zoom 4 (4096 px around the world) span about 33° of longitude, not 70°.
    expect(span(requests()[1]!)).toBeCloseTo(spanOf(375), 0);
    expect(span(first!)).toBeCloseTo(spanOf(800), 0);

    // Back to the first size: a different box from the one drawn, so one more call.
    await resizeTo(800);
    await waitFor(() => expect(requests()).toHaveLength(3));
    expect(requests()[2]!.search).toBe(first!.search);
    await sleep(AFTER_RESIZE_MS);
    expect(requests()).toHaveLength(3);
  });
});

describe('<poruch-map> hidden (0×0) and shown again', () => {
  it('asks for the new box on a resize in the list view, as the map view does, and nothing back on the map', async () => {
    const requests = watchMapRequests();
    const map = await mountMap();
    map.toggle();
    await waitFor(() => expect(map.listed()).toHaveLength(2));

    await resizeTo(375);
    // Before: nothing, and the list kept Lisbon, outside the box the map would show.
    await waitFor(() => expect(requests()).toHaveLength(2));
    expect(span(requests()[1]!)).toBeCloseTo(spanOf(375), 0);
    await waitFor(() => expect(map.listed()).toHaveLength(1));
    expect(map.listed()[0]).toContain('СТО «Прага»');

    map.toggle();
    await sleep(AFTER_RESIZE_MS);
    expect(requests()).toHaveLength(2);
    expect(map.marker('СТО «Прага»')).not.toBeNull();
    expect(stateOf(map.el)).toBe('ready');
  });

  it('asks nothing when it is shown again at the size it had', async () => {
    const requests = watchMapRequests();
    const map = await mountMap();
    const prague = map.marker('СТО «Прага»')!;
    map.toggle();
    await resizeTo(375);
    await resizeTo(800);
    map.toggle();
    await sleep(AFTER_RESIZE_MS);

    // Before: the single point's box, then the first box again.
    expect(requests()).toHaveLength(1);
    expect(map.marker('СТО «Прага»')).toBe(prague);
  });

  it('built in the list view, asks at once for the box the map would show and lists it', async () => {
    const requests = watchMapRequests();
    const map = await createMap({ 'list-view': '' });
    // Before: nothing until the map was shown, and the list said "Loading…".
    await waitFor(() => expect(map.listed()).toHaveLength(2));
    expect(requests()).toHaveLength(1);
    expect(span(requests()[0]!)).toBeCloseTo(spanOf(800), 0);
    expect(stateOf(map.el)).toBe('ready');

    map.toggle();
    await sleep(AFTER_RESIZE_MS);
    expect(requests()).toHaveLength(1);
    expect(map.marker('СТО «Прага»')).not.toBeNull();
  });

  it('asks for the box of its last size when the filters change while it is hidden', async () => {
    const requests = watchMapRequests();
    const map = await mountMap();
    map.toggle();
    // The host hides the element: the map is 0×0.
    map.el.hidden = true;
    await resizeTo(375);
    map.el.setAttribute('country', 'PT');
    await waitFor(() => expect(map.listed()).toHaveLength(1));
    expect(map.listed()[0]).toContain('Кав’ярня «Лісабон»');
    expect(requests()).toHaveLength(2);
    expect(span(requests()[1]!)).toBeCloseTo(spanOf(800), 0);
  });
});

describe('<poruch-map> on new filters', () => {
  const search = (filters: Record<string, string>) =>
    document.dispatchEvent(new CustomEvent('poruch:search', { detail: { channel: '', filters } }));

  it('asks nothing for filters that ask the same, and is ready with the answer it has', async () => {
    const requests = watchMapRequests();
    const map = await mountMap();
    const prague = map.marker('СТО «Прага»')!;
    // `all` is no category, and a search text of white space is none.
    search({ q: '  ', category: 'all' });
    await waitFor(() => expect(stateOf(map.el)).toBe('ready'));
    // Longer than the map's move debounce (150 ms): a request for these filters would be out.
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
