import { configure, fireEvent, waitFor, within } from '@testing-library/dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { cityAddress, withGate } from '../../__tests__/helpers/apiServer.js';
import { widgetRoot } from '../../__tests__/helpers/shadow.js';
import { widgetSuite } from '../../__tests__/helpers/mounts.js';
import type { SearchEventDetail } from '../../map/filters.js';
import { PoruchSearch } from '../PoruchSearch.js';
import '../element.js';

/** `<poruch-search>` searches as the visitor types, and the newest search's answer stays. */
const { api, mounts } = widgetSuite(PoruchSearch, 'poruch-search', ['page-size']);
// Two cores shared with other suites: an answer may take more than the default second.
configure({ asyncUtilTimeout: 10_000 });

beforeAll(async () => {
  await api.addService({
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
    name: 'СТО «Мотор»',
    category: 'auto',
    ...cityAddress(50.0647, 19.945, 'Kraków', 'PL'),
  });
}, 60_000);

const names = (root: HTMLElement) =>
  Array.from(root.querySelectorAll('.result h3'))
    .map((n) => n.textContent)
    .sort();
const countText = (root: HTMLElement) => root.querySelector('.count')?.textContent;
/** Types into the search box, as a person does, without pressing Search. */
const type = (root: HTMLElement, q: string) =>
  fireEvent.change(within(root).getByRole('searchbox'), { target: { value: q } });

describe.each(mounts)('<poruch-search> as a %s, typing', (_name, mount) => {
  it('shows the results of typed text without the Search button, and all again when cleared', async () => {
    const seen: SearchEventDetail[] = [];
    const on = (e: Event) => seen.push((e as CustomEvent<SearchEventDetail>).detail);
    document.addEventListener('poruch:search', on);
    try {
      const root = await widgetRoot(await mount({ apiBase: api.url, lang: 'en_GB' }));
      await waitFor(() => expect(countText(root)).toBe('Results: 3'));
      type(root, 'пекарня');
      await waitFor(() => expect(names(root)).toEqual(['Пекарня «Колосок»', 'Пекарня «Хлібчик»']));
      expect(countText(root)).toBe('Results: 2');
      // A paired map hears the typed text too.
      expect(seen.at(-1)?.filters.q).toBe('пекарня');
      type(root, '');
      await waitFor(() => expect(countText(root)).toBe('Results: 3'));
    } finally {
      document.removeEventListener('poruch:search', on);
    }
  });

  it('the Search button searches what the box holds, one letter too', async () => {
    const root = await widgetRoot(await mount({ apiBase: api.url, lang: 'en_GB' }));
    await waitFor(() => expect(countText(root)).toBe('Results: 3'));
    type(root, 'мотор');
    await waitFor(() => expect(names(root)).toEqual(['СТО «Мотор»']));
    const oneLetter = await fetch(`${api.url}/api/v1/services?q=${encodeURIComponent('п')}`);
    const { total } = (await oneLetter.json()) as { total: number };
    expect(total).not.toBe(1);
    type(root, 'п');
    fireEvent.submit(within(root).getByRole('search'));
    await waitFor(() => expect(countText(root)).toBe(`Results: ${total}`));
  });

  it('a late answer never replaces a newer one', async () => {
    await withGate(
      api,
      (url) => url.pathname.endsWith('/services') && url.searchParams.get('q') === 'пекарня',
      async (gate) => {
        const root = await widgetRoot(await mount({ apiBase: gate.url, lang: 'en_GB' }));
        await waitFor(() => expect(countText(root)).toBe('Results: 3'));
        type(root, 'пекарня');
        await gate.held; // its answer waits
        type(root, 'мотор');
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
    await waitFor(() => expect(status()).toBe('Results: 3'));
    type(root, 'мотор');
    await waitFor(() => expect(countText(root)).toBe('Results: 1'));
    // Shown at once, said a moment later.
    expect(status()).toBe('Results: 3');
    await waitFor(() => expect(status()).toBe('Results: 1'));
  });
});
