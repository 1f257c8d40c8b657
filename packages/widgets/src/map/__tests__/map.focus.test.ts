import { fireEvent, waitFor } from '@testing-library/dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { cityAddress, apiServerForSuite } from '../../__tests__/helpers/apiServer.js';
import { findFrameRoot, stateOf, widgetRoot } from '../../__tests__/helpers/shadow.js';
import { sizeLeafletContainers, watchMapRequests } from '../../__tests__/helpers/leaflet.js';
import { unmountAfterEach } from '../../__tests__/helpers/mounts.js';
import '../element.js';

/*
 * The keyboard on the map's markers: a marker that has the focus must keep it when the map
 * redraws (Tab walks through the markers while the map reloads), focusing a marker must not
 * move the map (a move reloads and redraws), and when the focused marker does go (its cluster
 * split), the focus goes to the marker that replaced it, not back to the page's start.
 *
 * happy-dom does no layout, so Leaflet's container is given a size (800×600, see
 * sizeLeafletContainers); markers are placed from that size. The API is the real server.
 */

const api = apiServerForSuite();

beforeAll(async () => {
  sizeLeafletContainers(800, 600);
  await api.addService({
    name: 'Кав’ярня «Лісабон»',
    ...cityAddress(38.7223, -9.1393, 'Lisboa', 'PT'),
  });
  await api.addService({
    name: 'Онлайн-школа «Гамбург»',
    ...cityAddress(53.5511, 9.9937, 'Hamburg', 'DE'),
  });
  // Two services in one street of Prague: one cluster at zoom 4, two points when zoomed in.
  await api.addService({
    name: 'Пекарня «Прага»',
    ...cityAddress(50.0755, 14.4378, 'Praha', 'CZ'),
  });
  await api.addService({ name: 'СТО «Прага»', ...cityAddress(50.076, 14.439, 'Praha', 'CZ') });
}, 60_000);

unmountAfterEach('poruch-map');

/** A `<poruch-map>` in the map view (not the list) on the real API, once it drew `expected`. */
async function mountMap(attrs: Record<string, string>, marker: string) {
  const el = document.createElement('poruch-map');
  for (const [k, v] of Object.entries({
    'api-base': api.url,
    lang: 'en_GB',
    'tile-url': 'none',
    ...attrs,
  }))
    el.setAttribute(k, v);
  document.body.append(el);
  const root = await widgetRoot(el);
  await waitFor(() => expect(stateOf(el)).toBe('ready'));
  await waitFor(() => expect(root.querySelector(marker)).not.toBeNull());
  const shadow = findFrameRoot(el)!;
  return {
    root,
    /** The element that has the focus inside the widget (null when the focus left it). */
    focused: () => shadow.activeElement,
    marker: (label: string) =>
      root.querySelector<HTMLElement>(`.leaflet-marker-icon[aria-label="${label}"]`) ??
      root.querySelector<HTMLElement>(`.leaflet-marker-icon[title="${label}"]`),
    /** The map pane's offset: Leaflet moves it when the map pans. */
    pane: () => {
      const pane = root.querySelector<HTMLElement>('.leaflet-map-pane')!;
      return `${pane.style.transform}|${pane.style.left}|${pane.style.top}`;
    },
  };
}

/** Asks the map to move, as a `<poruch-search>` result does (`poruch:focus`). */
const moveTo = (lat: number, lng: number, zoom: number) =>
  document.dispatchEvent(
    new CustomEvent('poruch:focus', { detail: { channel: '', lat, lng, zoom } }),
  );

const CLUSTER = '2 services here: zoom in';

describe('<poruch-map> keeps the keyboard focus on its markers', () => {
  it('a focused cluster keeps its element and the focus when the map redraws around it', async () => {
    const requests = watchMapRequests();
    const map = await mountMap({ center: '50,15', zoom: '4' }, '.poruch-cluster');
    expect(map.marker('Кав’ярня «Лісабон»')).not.toBeNull();
    const cluster = map.marker(CLUSTER)!;
    cluster.focus();
    expect(map.focused()).toBe(cluster);

    // A pan east: Lisbon leaves the view, the Prague cluster stays. The map loads and redraws.
    const before = requests().length;
    moveTo(50, 30, 4);
    await waitFor(() => expect(requests().length).toBeGreaterThan(before));
    await waitFor(() => expect(map.marker('Кав’ярня «Лісабон»')).toBeNull());
    expect(map.marker(CLUSTER)).toBe(cluster);
    expect(cluster.isConnected).toBe(true);
    expect(map.focused()).toBe(cluster);
  });

  it('focusing a marker at the edge of the map does not move the map (no reload, no redraw)', async () => {
    const requests = watchMapRequests();
    // Lisbon 5 px inside the left edge: 800 px at zoom 4 span 70.3° of longitude.
    const lng = -9.1393 + (400 - 5) * (360 / (256 * 2 ** 4));
    const map = await mountMap({ center: `50,${lng}`, zoom: '4' }, '.poruch-point');
    const lisbon = map.marker('Кав’ярня «Лісабон»')!;
    expect(lisbon).not.toBeNull();
    const pane = map.pane();
    const before = requests().length;
    lisbon.focus();
    expect(map.focused()).toBe(lisbon);
    expect(map.pane()).toBe(pane);
    // Longer than the move debounce (150 ms): a pan would have asked the server again.
    await new Promise((r) => setTimeout(r, 600));
    expect(map.pane()).toBe(pane);
    expect(requests()).toHaveLength(before);
    expect(map.marker('Кав’ярня «Лісабон»')).toBe(lisbon);
    expect(map.focused()).toBe(lisbon);
  });

  it('Enter on a focused cluster zooms in and hands the focus to a marker that replaced it', async () => {
    const requests = watchMapRequests();
    const map = await mountMap({ center: '50,15', zoom: '4' }, '.poruch-cluster');
    const cluster = map.marker(CLUSTER)!;
    cluster.focus();
    const before = requests().length;
    fireEvent.keyDown(cluster, { key: 'Enter' });
    await waitFor(() => expect(requests().length).toBeGreaterThan(before));
    expect(Number(requests().at(-1)!.searchParams.get('zoom'))).toBeGreaterThan(4);
    // The cluster split into its two services.
    await waitFor(() => expect(map.root.querySelectorAll('.poruch-point')).toHaveLength(2));
    expect(cluster.isConnected).toBe(false);
    const now = map.focused() as HTMLElement | null;
    expect(now?.classList.contains('poruch-point')).toBe(true);
    expect(['Пекарня «Прага»', 'СТО «Прага»']).toContain(now!.getAttribute('aria-label'));
  });
});
