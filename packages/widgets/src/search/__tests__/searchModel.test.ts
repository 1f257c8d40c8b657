import { createI18n } from '@poruch/core';
import { describe, expect, it } from 'vitest';
import {
  changeSearch,
  NEW_SEARCH,
  pageCount,
  readSearchUrl,
  resultsText,
  searchRequest,
  searchUrlChange,
} from '../searchModel.js';

const url = (qs: string) => readSearchUrl(new URLSearchParams(qs));

describe('the search model', () => {
  it('builds the call: unset filters left out, online only for services, text trimmed', () => {
    expect(searchRequest(NEW_SEARCH, 10)).toEqual({
      path: 'services',
      query: { page: 1, pageSize: 10 },
    });
    const full = {
      ...NEW_SEARCH,
      q: '  перукарня ',
      country: 'PL',
      category: 'beauty_and_health',
      online: true,
      page: 3,
    };
    const services = searchRequest(full, 20);
    expect(services).toEqual({
      path: 'services',
      query: {
        page: 3,
        pageSize: 20,
        q: 'перукарня',
        country: 'PL',
        category: 'beauty_and_health',
        online: true,
      },
    });
    // The same without `online`, which vacancies do not have.
    const { online: _online, ...withoutOnline } = services.query;
    expect(searchRequest({ ...full, mode: 'vacancies' }, 20)).toEqual({
      path: 'vacancies',
      query: withoutOnline,
    });
    // `all` (the widget's attribute value) is every category, as empty is.
    expect(searchRequest({ ...NEW_SEARCH, category: 'all', q: '   ' }, 5).query).toEqual({
      page: 1,
      pageSize: 5,
    });
  });

  it('starts again at page 1 on a change, unless the change is the page', () => {
    const onPage3 = { ...NEW_SEARCH, page: 3 };
    expect(changeSearch(onPage3, { country: 'DE' })).toEqual({
      ...NEW_SEARCH,
      country: 'DE',
      page: 1,
    });
    expect(changeSearch(onPage3, { page: 4 }).page).toBe(4);
  });

  it('shows the total, and a lower bound as "1000+", with the count in the language', () => {
    const en = createI18n('en_GB');
    const ua = createI18n('ua');
    const exact = { total: 364, pageSize: 20 };
    const capped = { total: 1000, totalIsEstimate: true, pageSize: 20 };
    expect(resultsText(en.t, 'en_GB', 'widget.results', exact)).toBe('Results: 364');
    expect(resultsText(en.t, 'en_GB', 'widget.results', capped)).toBe('Results: 1,000+');
    expect(resultsText(en.t, 'en_GB', 'home.results', capped)).toBe('Results: 1,000+');
    // Ukrainian groups digits with a no-break space.
    expect(resultsText(ua.t, 'ua', 'widget.results', capped)).toBe('Результатів: 1\u00a0000+');
    expect(resultsText(ua.t, 'ua', 'home.results', capped)).toBe('Знайдено: 1\u00a0000+');
    expect(resultsText(ua.t, 'ua', 'home.results', { total: 1234, pageSize: 20 })).toBe(
      'Знайдено: 1\u00a0234',
    );
    expect(resultsText(ua.t, 'ua', 'home.results', undefined)).toBe('Знайдено: 0');
  });

  it('counts the pages of an answer (at least one)', () => {
    expect(pageCount(undefined)).toBe(1);
    expect(pageCount({ total: 0, pageSize: 20 })).toBe(1);
    expect(pageCount({ total: 41, pageSize: 20 })).toBe(3);
    expect(pageCount({ total: 1000, totalIsEstimate: true, pageSize: 20 })).toBe(50);
  });

  it('reads the home page URL, falling back to the defaults for anything unknown', () => {
    expect(url('')).toEqual({ ...NEW_SEARCH, view: 'map' });
    expect(
      url('mode=vacancies&view=list&q=перукарня&country=pl&category=beauty_and_health&page=2'),
    ).toEqual({
      mode: 'vacancies',
      view: 'list',
      q: 'перукарня',
      country: 'PL',
      category: 'beauty_and_health',
      online: false,
      page: 2,
    });
    expect(url('online=1&category=empty').online).toBe(true);
    expect(url('category=empty').category).toBe('empty');
    expect(url('mode=x&view=y&country=POL&category=nope&page=-4&online=true')).toEqual({
      ...NEW_SEARCH,
      view: 'map',
    });
    expect(url(`q=${'я'.repeat(250)}`).q).toHaveLength(200);
  });

  it('writes only what differs from the defaults into the URL, and round-trips', () => {
    expect(searchUrlChange({ ...NEW_SEARCH, view: 'map' })).toEqual({
      mode: null,
      view: null,
      q: null,
      country: null,
      category: null,
      online: null,
      page: null,
    });
    expect(searchUrlChange({ view: 'list', q: '  kyiv ', page: 2 })).toEqual({
      view: 'list',
      q: 'kyiv',
      page: '2',
    });
    const state = url('mode=vacancies&view=list&q=kyiv&country=DE&category=food&online=1&page=4');
    const written = new URLSearchParams();
    for (const [k, v] of Object.entries(searchUrlChange(state))) if (v !== null) written.set(k, v);
    expect(readSearchUrl(written)).toEqual(state);
  });
});
