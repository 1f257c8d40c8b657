import { render } from '@testing-library/react';
import { fireEvent, waitFor, within } from '@testing-library/dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { cityAddress, withOutage, type SeededService } from '../../__tests__/helpers/apiServer.js';
import { findFrameRoot, stateOf, widgetRoot } from '../../__tests__/helpers/shadow.js';
import { sizeLeafletContainers, watchMapRequests } from '../../__tests__/helpers/leaflet.js';
import { widgetSuite, type Attributes } from '../../__tests__/helpers/mounts.js';
import { parseCenter, type ServiceFilters } from '../filters.js';
import { PoruchMap } from '../PoruchMap.js';
import '../element.js';

/*
 * Leaflet's container is 800×600 (see sizeLeafletContainers). Tiles are off
 * (`tile-url="none"`), so nothing leaves the loopback.
 */
const WIDTH = 800;
const HEIGHT = 600;

const { api, mounts } = widgetSuite(PoruchMap, 'poruch-map', ['zoom']);
let lisbon: SeededService;

beforeAll(async () => {
  sizeLeafletContainers(WIDTH, HEIGHT);
  lisbon = await api.addService({
    name: 'Кав’ярня «Лісабон»',
    category: 'food',
    ...cityAddress(38.7223, -9.1393, 'Lisboa', 'PT'),
  });
  await api.addService({ name: 'Перукарня «Калина»', countryCode: 'PL' }); // Warszawa
  // Two services in one street of Prague: a cluster of two below street level.
  await api.addService({
    name: 'Пекарня «Прага»',
    category: 'food',
    ...cityAddress(50.0755, 14.4378, 'Praha', 'CZ'),
  });
  await api.addService({
    name: 'СТО «Прага»',
    category: 'auto',
    ...cityAddress(50.076, 14.439, 'Praha', 'CZ'),
  });
  await api.addService({
    name: 'Онлайн-школа «Гамбург»',
    category: 'food',
    isOnline: true,
    ...cityAddress(53.5511, 9.9937, 'Hamburg', 'DE'),
  });
  await api.addService({
    name: 'Невидимка',
    showOnMap: false,
    ...cityAddress(50.0647, 19.945, 'Kraków', 'PL'),
  });
}, 60_000);

/** The common attributes: the real API, no tiles, the list view on. */
const base = (extra: Attributes = {}): Attributes => ({
  apiBase: api.url,
  lang: 'en_GB',
  tileUrl: 'none',
  listView: '',
  ...extra,
});
const BOOLEAN = ['listView', 'online', 'scrollZoom'];
/**
 * Attributes as the React component takes them: a present boolean attribute (`''`) is `true`,
 * `center` is `{ lat, lng }` (the element parses `"lat,lng"` itself).
 */
const fix = (name: string, attrs: Attributes): Attributes => {
  if (name !== 'React component') return attrs;
  const props: Record<string, unknown> = { ...attrs };
  for (const k of BOOLEAN) if (attrs[k] === '') props[k] = true;
  if (attrs.center) props.center = parseCenter(attrs.center);
  return props as Attributes;
};

/** The list view's items: `name | category · place`, in the list's order. */
const listed = (root: HTMLElement) =>
  Array.from(root.querySelectorAll('.list li')).map((li) =>
    Array.from(li.children)
      .map((c) => c.textContent?.trim())
      .join(' | '),
  );
const names = (root: HTMLElement) => listed(root).map((item) => item.split(' | ')[0]);

/** The `state` values a widget goes through, from its mount on. */
const recordStates = (host: HTMLElement) => {
  const seen: (string | null)[] = [stateOf(host)];
  const observer = new MutationObserver(() => {
    const now = stateOf(host);
    if (now !== seen.at(-1)) seen.push(now);
  });
  observer.observe(host, { attributes: true, subtree: true, attributeFilter: ['state'] });
  const shadowHost = findFrameRoot(host)?.host;
  if (shadowHost) observer.observe(shadowHost, { attributes: true, attributeFilter: ['state'] });
  return { seen, stop: () => observer.disconnect() };
};

describe.each(mounts)('<poruch-map> as a %s', (name, rawMount) => {
  const mount = (attrs: Attributes) => rawMount(fix(name, attrs));

  it('asks /api/v1/map for its bbox and zoom, and goes loading → ready', async () => {
    const requests = watchMapRequests();
    const host = await rawMount(
      fix(name, { apiBase: api.url, lang: 'en_GB', tileUrl: 'none', center: '52,20', zoom: '5' }),
    );
    const states = recordStates(host);
    await widgetRoot(host);
    await waitFor(() => expect(stateOf(host)).toBe('ready'));
    states.stop();
    expect(states.seen.filter((s) => s !== null)).toEqual(['loading', 'ready']);
    const [first] = requests();
    expect(first).toBeDefined();
    const q = Object.fromEntries(first!.searchParams);
    expect(Object.keys(q).sort()).toEqual(['bbox', 'zoom']);
    expect(q.zoom).toBe('5');
    const [west, south, east, north] = q.bbox!.split(',').map(Number) as [
      number,
      number,
      number,
      number,
    ];
    // 800 px at zoom 5 (8192 px around the world) is about 35° of longitude, centred on 20°E.
    expect(west).toBeLessThan(20);
    expect(east).toBeGreaterThan(20);
    expect(east - west).toBeCloseTo((WIDTH / (256 * 2 ** 5)) * 360, 0);
    expect(south).toBeLessThan(52);
    expect(north).toBeGreaterThan(52);
  });

  it('lists the services in view, by name, category and place, as links to their profiles', async () => {
    const host = await mount(base());
    const root = await widgetRoot(host);
    await waitFor(() => expect(stateOf(host)).toBe('ready'));
    // Not the map's clusters (the two Prague services are one at this zoom): every service.
    await waitFor(() => expect(listed(root)).toHaveLength(5));
    expect([...names(root)].sort()).toEqual([
      'Кав’ярня «Лісабон»',
      'Онлайн-школа «Гамбург»',
      'Пекарня «Прага»',
      'Перукарня «Калина»',
      'СТО «Прага»',
    ]);
    expect(listed(root)).toContain('СТО «Прага» | Cars · Praha');
    expect(listed(root)).toContain('Онлайн-школа «Гамбург» | Food · Online');
    const ui = within(root);
    const list = ui.getByRole('list', { name: 'Services in this part of the map: 5' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(5);
    expect(ui.getByRole('status').textContent).toBe('Services in view: 5');
    expect(ui.getByRole('button', { name: 'Show the map' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(ui.getByRole('link', { name: 'Кав’ярня «Лісабон»' }).getAttribute('href')).toMatch(
      new RegExp(`/services/${lisbon.id}$`),
    );
    expect(root.textContent).not.toContain('Невидимка');
  });

  it('sends q to the map and lists what the search finds for it', async () => {
    const requests = watchMapRequests();
    const host = await mount(base({ q: 'Прага' }));
    const root = await widgetRoot(host);
    await waitFor(() =>
      expect([...names(root)].sort()).toEqual(['Пекарня «Прага»', 'СТО «Прага»']),
    );
    expect(requests().at(-1)!.searchParams.get('q')).toBe('Прага');
    await waitFor(() =>
      expect(within(root).getByRole('status').textContent).toBe('Services in view: 2'),
    );
  });

  it('sends the filters of its attributes and shows only what they match', async () => {
    const requests = watchMapRequests();
    const host = await mount(base({ country: 'DE', category: 'food', online: '' }));
    const root = await widgetRoot(host);
    await waitFor(() => expect(listed(root)).toEqual(['Онлайн-школа «Гамбург» | Food · Online']));
    const q = Object.fromEntries(requests().at(-1)!.searchParams);
    expect(q).toMatchObject({ country: 'DE', category: 'food', online: 'true', zoom: '4' });
  });

  it('takes the filters property over the attributes, and follows its changes', async () => {
    const requests = watchMapRequests();
    let host: HTMLElement;
    let setFilters: (f: ServiceFilters) => void;
    if (name === 'React component') {
      const props = { apiBase: api.url, lang: 'en_GB', tileUrl: 'none', listView: true };
      const r = render(<PoruchMap {...props} country="PL" filters={{ country: 'CZ' }} />);
      host = r.container;
      setFilters = (f) => r.rerender(<PoruchMap {...props} country="PL" filters={f} />);
    } else {
      const el = document.createElement('poruch-map') as HTMLElement & {
        filters?: ServiceFilters;
      };
      for (const [k, v] of Object.entries({
        'api-base': api.url,
        lang: 'en_GB',
        'tile-url': 'none',
        'list-view': '',
        country: 'PL',
      }))
        el.setAttribute(k, v);
      el.filters = { country: 'CZ' };
      document.body.append(el);
      host = el;
      setFilters = (f) => {
        el.filters = f;
      };
    }
    const root = await widgetRoot(host);
    await waitFor(() =>
      expect([...names(root)].sort()).toEqual(['Пекарня «Прага»', 'СТО «Прага»']),
    );
    expect(requests().at(-1)!.searchParams.get('country')).toBe('CZ');
    setFilters({ country: 'PT', category: 'food' });
    await waitFor(() => expect(names(root)).toEqual(['Кав’ярня «Лісабон»']));
    const q = Object.fromEntries(requests().at(-1)!.searchParams);
    expect(q).toMatchObject({ country: 'PT', category: 'food' });
    expect(q.online).toBeUndefined();
  });

  it('follows poruch:search of its channel only', async () => {
    const requests = watchMapRequests();
    const host = await mount(base({ channel: 'west' }));
    const root = await widgetRoot(host);
    await waitFor(() => expect(listed(root)).toHaveLength(5));
    const send = (channel: string, filters: ServiceFilters) =>
      document.dispatchEvent(new CustomEvent('poruch:search', { detail: { channel, filters } }));
    send('east', { country: 'PL' });
    send('west', { country: 'PT' });
    await waitFor(() => expect(names(root)).toEqual(['Кав’ярня «Лісабон»']));
    expect(requests().map((u) => u.searchParams.get('country'))).not.toContain('PL');
  });

  it('speaks the language of lang', async () => {
    const host = await mount(base({ lang: 'ua' }));
    const root = await widgetRoot(host);
    await waitFor(() => expect(listed(root)).toHaveLength(5));
    const ui = within(root);
    expect(ui.getByRole('status').textContent).toBe('Сервісів у полі зору: 5');
    expect(ui.getByRole('button', { name: 'Показати мапу' })).toBeTruthy();
    expect(ui.getByRole('list', { name: 'Сервіси в цій частині мапи: 5' })).toBeTruthy();
    expect(listed(root)).toContain('СТО «Прага» | Авто · Praha');
    fireEvent.click(ui.getByRole('button', { name: 'Показати мапу' }));
    await waitFor(() => expect(ui.getByRole('button', { name: 'Показати списком' })).toBeTruthy());
    expect(root.querySelector('.list')).toBeNull();
  });

  it("shows a custom tile-url's tile-attribution as text, OpenStreetMap's without one, none with tile-url none", async () => {
    const attribution = async (extra: Attributes) => {
      const host = await mount(base({ listView: undefined, ...extra }));
      const root = await widgetRoot(host);
      await waitFor(() =>
        expect(root.querySelector('.leaflet-control-attribution')).not.toBeNull(),
      );
      return root.querySelector('.leaflet-control-attribution')!;
    };
    const tiles = `${api.url}/no-tiles/{z}/{x}/{y}.png`;
    const own = await attribution({ tileUrl: tiles, tileAttribution: '<b>Tiles</b> & Co' });
    expect(own.textContent).toContain('<b>Tiles</b> & Co');
    expect(own.querySelector('b')).toBeNull();
    const osm = await attribution({ tileUrl: tiles });
    expect(osm.textContent).toContain('© OpenStreetMap');
    const none = await attribution({});
    expect(none.textContent).not.toContain('OpenStreetMap');
  });

  it('shows a translated error with a retry when the API is down', async () => {
    await withOutage(api, async (outage) => {
      const requests = watchMapRequests();
      const host = await mount({ ...base({ lang: 'ua' }), apiBase: outage.url });
      const root = await widgetRoot(host);
      await waitFor(() =>
        expect(within(root).getByRole('alert').textContent).toContain(
          'Сервіс недоступний: спробуйте пізніше',
        ),
      );
      expect(stateOf(host)).toBe('error');
      // Not "Loading…": the error state says why.
      expect(within(root).getByRole('status').textContent).toBe('');
      const before = requests().length;
      fireEvent.click(within(root).getByRole('button', { name: 'Спробувати ще раз' }));
      await waitFor(() => expect(requests().length).toBeGreaterThan(before));
      expect(requests().at(-1)!.origin).toBe(outage.url);
      await waitFor(() => expect(within(root).getByRole('alert')).toBeTruthy());
      // The retried call gets its answer (another 503) before the outage server closes.
      await requests.spy.mock.results.at(-1)!.value;
      await waitFor(() => expect(stateOf(host)).toBe('error'));
    });
  });
});
