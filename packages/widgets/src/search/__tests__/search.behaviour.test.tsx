import { cleanup } from '@testing-library/react';
import { configure, fireEvent, waitFor, within } from '@testing-library/dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  cityAddress,
  withGate,
  withOutage,
  type SeededService,
} from '../../__tests__/helpers/apiServer.js';
import { stateOf, widgetRoot } from '../../__tests__/helpers/shadow.js';
import { removeElements, widgetSuite } from '../../__tests__/helpers/mounts.js';
import type { FocusEventDetail, SearchEventDetail } from '../../map/filters.js';
import { PoruchSearch } from '../PoruchSearch.js';
import '../element.js';

const { api, mounts } = widgetSuite(PoruchSearch, 'poruch-search', ['page-size']);
// Two cores shared with other suites: an answer may take more than the default second.
configure({ asyncUtilTimeout: 10_000 });
let berlin: SeededService;

beforeAll(async () => {
  berlin = await api.addService({
    name: 'Пекарня «Колосок»',
    category: 'food',
    ...cityAddress(52.52, 13.405, 'Berlin', 'DE'),
  });
  await api.addService({
    name: 'Пекарня «Хлібчик»',
    category: 'food',
    ...cityAddress(52.2297, 21.0122, 'Warszawa', 'PL'),
  });
  await api.addService({
    name: 'Пекарня онлайн «Тісто»',
    countryCode: 'DE',
    category: 'food',
    isOnline: true,
    showOnMap: false,
    address: '',
    addressDetails: null,
  });
  await api.addService({
    name: 'СТО «Мотор»',
    category: 'auto',
    ...cityAddress(50.0647, 19.945, 'Kraków', 'PL'),
  });
}, 180_000);

const names = (root: HTMLElement) =>
  Array.from(root.querySelectorAll('.result h3')).map((n) => n.textContent);
const countText = (root: HTMLElement) => root.querySelector('.count')?.textContent;

/** Types into the search box and submits the form, as a person pressing Enter. */
const search = (root: HTMLElement, q: string) => {
  const box = within(root).getByRole('searchbox');
  fireEvent.change(box, { target: { value: q } });
  fireEvent.submit(within(root).getByRole('search'));
};

/** Collects the detail of every `poruch:<name>` event reaching the document. */
function listen<T>(name: string) {
  const seen: T[] = [];
  const on = (e: Event) => seen.push((e as CustomEvent<T>).detail);
  document.addEventListener(`poruch:${name}`, on);
  return { seen, stop: () => document.removeEventListener(`poruch:${name}`, on) };
}

describe.each(mounts)('<poruch-search> as a %s', (_name, mount) => {
  it('shows results from the API for a typed query', async () => {
    const host = await mount({ apiBase: api.url, lang: 'en_GB' });
    const root = await widgetRoot(host);
    await waitFor(() => expect(countText(root)).toBe('Results: 4'));
    // The state attribute follows the render in an effect: waited for, not read at once.
    await waitFor(() => expect(stateOf(host)).toBe('ready'));
    search(root, 'Пекарня');
    await waitFor(() =>
      expect(names(root).sort()).toEqual([
        'Пекарня «Колосок»',
        'Пекарня «Хлібчик»',
        'Пекарня онлайн «Тісто»',
      ]),
    );
    expect(countText(root)).toBe('Results: 3');
    const link = within(root).getByRole('link', { name: 'Пекарня «Колосок»' });
    expect(link.getAttribute('href')).toMatch(new RegExp(`services/${berlin.id}$`));
    expect(root.textContent).toContain('Germany · Food · Berlin');
    expect(root.textContent).toContain('Germany · Food · Online');
  });

  it('narrows the results by country and online only', async () => {
    const host = await mount({ apiBase: api.url, lang: 'en_GB', q: 'Пекарня' });
    const root = await widgetRoot(host);
    await waitFor(() => expect(names(root)).toHaveLength(3));
    const ui = within(root);
    fireEvent.change(ui.getByLabelText('Country'), { target: { value: 'DE' } });
    await waitFor(() =>
      expect(names(root).sort()).toEqual(['Пекарня «Колосок»', 'Пекарня онлайн «Тісто»']),
    );
    fireEvent.click(ui.getByLabelText('Online only'));
    await waitFor(() => expect(names(root)).toEqual(['Пекарня онлайн «Тісто»']));
    expect(countText(root)).toBe('Results: 1');
    // An online service with no place has nothing to show on a map.
    expect(ui.queryByRole('button', { name: 'Show on the map' })).toBeNull();
  });

  it('starts from its attributes: country, category and online', async () => {
    const host = await mount({ apiBase: api.url, lang: 'en_GB', country: 'PL', category: 'auto' });
    const root = await widgetRoot(host);
    await waitFor(() => expect(names(root)).toEqual(['СТО «Мотор»']));
    expect((within(root).getByLabelText('Country') as HTMLSelectElement).value).toBe('PL');
    expect((within(root).getByLabelText('Category') as HTMLSelectElement).value).toBe('auto');
  });

  it('says there are no results when nothing matches', async () => {
    const host = await mount({ apiBase: api.url, lang: 'en_GB' });
    const root = await widgetRoot(host);
    await waitFor(() => expect(names(root)).toHaveLength(4));
    search(root, 'космонавт');
    await waitFor(() => expect(countText(root)).toBe('Results: 0'));
    expect(names(root)).toEqual([]);
    expect(within(root).queryByRole('alert')).toBeNull();
  });

  it('fires poruch:search with its filters and poruch:focus for "show on the map"', async () => {
    const searches = listen<SearchEventDetail>('search');
    const focuses = listen<FocusEventDetail>('focus');
    try {
      const host = await mount({ apiBase: api.url, lang: 'en_GB', channel: 'north' });
      const root = await widgetRoot(host);
      await waitFor(() => expect(names(root)).toHaveLength(4));
      expect(searches.seen.at(-1)).toEqual({
        channel: 'north',
        filters: { q: '', country: '', category: 'all' },
      });
      search(root, 'Колосок');
      await waitFor(() => expect(names(root)).toEqual(['Пекарня «Колосок»']));
      expect(searches.seen.at(-1)).toEqual({
        channel: 'north',
        filters: { q: 'Колосок', country: '', category: 'all' },
      });
      fireEvent.click(within(root).getByLabelText('Online only'));
      await waitFor(() =>
        expect(searches.seen.at(-1)).toEqual({
          channel: 'north',
          filters: { q: 'Колосок', country: '', category: 'all', online: true },
        }),
      );
      // Колосок is not online; let that answer come before the next change.
      await waitFor(() => expect(countText(root)).toBe('Results: 0'));
      fireEvent.click(within(root).getByLabelText('Online only'));
      await waitFor(() => expect(names(root)).toEqual(['Пекарня «Колосок»']));
      fireEvent.click(within(root).getByRole('button', { name: 'Show on the map' }));
      expect(focuses.seen).toEqual([{ channel: 'north', id: berlin.id, lat: 52.52, lng: 13.405 }]);
    } finally {
      searches.stop();
      focuses.stop();
    }
  });

  it('speaks Ukrainian with lang="ua" and English with lang="en_GB"', async () => {
    const ua = await mount({ apiBase: api.url, lang: 'ua', q: 'Колосок' });
    const uaRoot = await widgetRoot(ua);
    await waitFor(() => expect(countText(uaRoot)).toBe('Результатів: 1'));
    const uaUi = within(uaRoot);
    expect(uaUi.getByRole('searchbox', { name: 'Пошук бізнесів' })).toBeTruthy();
    expect(uaUi.getByLabelText('Країна')).toBeTruthy();
    expect(uaUi.getByLabelText('Лише онлайн')).toBeTruthy();
    expect(uaUi.getByRole('button', { name: 'Пошук' })).toBeTruthy();
    expect(uaUi.getByRole('button', { name: 'Показати на мапі' })).toBeTruthy();
    expect(uaRoot.textContent).toContain('Німеччина · Їжа · Berlin');
    cleanup();
    removeElements('poruch-search');

    const en = await mount({ apiBase: api.url, lang: 'en_GB', q: 'Колосок' });
    const enRoot = await widgetRoot(en);
    await waitFor(() => expect(countText(enRoot)).toBe('Results: 1'));
    const enUi = within(enRoot);
    expect(enUi.getByRole('searchbox', { name: 'Search businesses' })).toBeTruthy();
    expect(enUi.getByLabelText('Country')).toBeTruthy();
    expect(enUi.getByRole('button', { name: 'Search' })).toBeTruthy();
    expect(enUi.getByRole('button', { name: 'Show on the map' })).toBeTruthy();
    expect(enRoot.textContent).toContain('Germany · Food · Berlin');
  });

  it('shows a translated error with a retry when the API is down', async () => {
    await withOutage(api, async (outage) => {
      const fetchSpy = vi.spyOn(window, 'fetch');
      try {
        const host = await mount({ apiBase: outage.url, lang: 'ua' });
        const root = await widgetRoot(host);
        await waitFor(() =>
          expect(within(root).getByRole('alert').textContent).toContain(
            'Сервіс недоступний: спробуйте пізніше',
          ),
        );
        expect(within(root).getByRole('alert').textContent).toContain(
          'Віджет не вдалося завантажити',
        );
        expect(stateOf(host)).toBe('error');
        const calls = fetchSpy.mock.calls.length;
        fireEvent.click(within(root).getByRole('button', { name: 'Спробувати ще раз' }));
        await waitFor(() => expect(fetchSpy.mock.calls.length).toBeGreaterThan(calls));
        expect(String(fetchSpy.mock.calls.at(-1)![0])).toContain(`${outage.url}/api/v1/services?`);
        // The retried call gets its answer (another 503) before the outage server closes.
        await fetchSpy.mock.results.at(-1)!.value;
        await waitFor(() => expect(stateOf(host)).toBe('error'));
        expect(within(root).getByRole('alert')).toBeTruthy();
      } finally {
        fetchSpy.mockRestore();
      }
    });
  });
});

/** Types into the search box, as a person does, without pressing Search. */
const typeText = (root: HTMLElement, q: string) =>
  fireEvent.change(within(root).getByRole('searchbox'), { target: { value: q } });

describe.each(mounts)('<poruch-search> as a %s, searching as the visitor types', (_name, mount) => {
  it('shows the results of typed text without the Search button, and all again when cleared', async () => {
    const seen: SearchEventDetail[] = [];
    const on = (e: Event) => seen.push((e as CustomEvent<SearchEventDetail>).detail);
    document.addEventListener('poruch:search', on);
    try {
      const root = await widgetRoot(await mount({ apiBase: api.url, lang: 'en_GB' }));
      await waitFor(() => expect(countText(root)).toBe('Results: 4'));
      typeText(root, 'пекарня');
      await waitFor(() =>
        expect(names(root).sort()).toEqual([
          'Пекарня «Колосок»',
          'Пекарня «Хлібчик»',
          'Пекарня онлайн «Тісто»',
        ]),
      );
      expect(countText(root)).toBe('Results: 3');
      // A paired map hears the typed text too.
      expect(seen.at(-1)?.filters.q).toBe('пекарня');
      typeText(root, '');
      await waitFor(() => expect(countText(root)).toBe('Results: 4'));
    } finally {
      document.removeEventListener('poruch:search', on);
    }
  });

  it('the Search button searches what the box holds, one letter too', async () => {
    const root = await widgetRoot(await mount({ apiBase: api.url, lang: 'en_GB' }));
    await waitFor(() => expect(countText(root)).toBe('Results: 4'));
    typeText(root, 'мотор');
    await waitFor(() => expect(names(root)).toEqual(['СТО «Мотор»']));
    const oneLetter = await fetch(`${api.url}/api/v1/services?q=${encodeURIComponent('п')}`);
    const { total } = (await oneLetter.json()) as { total: number };
    expect(total).not.toBe(1);
    typeText(root, 'п');
    fireEvent.submit(within(root).getByRole('search'));
    await waitFor(() => expect(countText(root)).toBe(`Results: ${total}`));
  });

  it('a late answer never replaces a newer one', async () => {
    await withGate(
      api,
      (url) => url.pathname.endsWith('/services') && url.searchParams.get('q') === 'пекарня',
      async (gate) => {
        const root = await widgetRoot(await mount({ apiBase: gate.url, lang: 'en_GB' }));
        await waitFor(() => expect(countText(root)).toBe('Results: 4'));
        typeText(root, 'пекарня');
        await gate.held; // its answer waits
        typeText(root, 'мотор');
        await waitFor(() => expect(names(root)).toEqual(['СТО «Мотор»']));
        // Now the older search's answer comes.
        await gate.release();
        await new Promise((r) => setTimeout(r, 50));
        expect(names(root)).toEqual(['СТО «Мотор»']);
        expect(countText(root)).toBe('Results: 1');
      },
    );
  });

  it('tells screen readers the count once it settles, not each answer while typing', async () => {
    const root = await widgetRoot(await mount({ apiBase: api.url, lang: 'en_GB' }));
    const status = () => within(root).getByRole('status').textContent;
    await waitFor(() => expect(status()).toBe('Results: 4'));
    typeText(root, 'мотор');
    await waitFor(() => expect(countText(root)).toBe('Results: 1'));
    // Shown at once, said a moment later.
    expect(status()).toBe('Results: 4');
    await waitFor(() => expect(status()).toBe('Results: 1'));
  });
});
