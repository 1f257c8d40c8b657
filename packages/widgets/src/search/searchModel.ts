import {
  CATEGORY_KEYS,
  LIMITS,
  LOCALE_DEFINITIONS,
  type LocaleCode,
  type Translate,
} from '@poruch/core/lite';
import type { AlertSearch } from '@poruch/core';

/**
 * The search model that `<poruch-search>` and the site's home page share: the state of a search,
 * the API call it makes, what its answer shows, and (for the home page) the URL that holds it.
 * Plain functions with no React, so both interfaces and their tests use the same code.
 */

/** Which search: services (businesses) or vacancies. `<poruch-search>` searches services. */
export type SearchMode = 'services' | 'vacancies';
/** How the home page shows results. */
export type ResultView = 'map' | 'list';

export interface SearchState {
  mode: SearchMode;
  /** Search text; empty searches without text. */
  q: string;
  /** ISO country code; empty for every country. */
  country: string;
  /** A category key or `empty`; empty (or `all`) for every category. */
  category: string;
  /** Online services only (services mode). */
  online: boolean;
  /** 1-based page of results. */
  page: number;
}

/** A search with the home page's view: all that its URL holds. */
export interface UrlSearchState extends SearchState {
  view: ResultView;
}

/** The defaults: services, no text, no filters, page 1. */
export const NEW_SEARCH: SearchState = {
  mode: 'services',
  q: '',
  country: '',
  category: '',
  online: false,
  page: 1,
};

/** A change of the search: another filter or text starts again at page 1. */
export function changeSearch<S extends SearchState>(state: S, change: Partial<S>): S {
  return { ...state, page: 1, ...change };
}

/** How long typing pauses before the search asks (search as you type). */
export const TYPING_DELAY_MS = 150;
/** How long the results count stays the same before a screen reader is told it. */
export const SETTLED_DELAY_MS = 1000;
/** Fewest characters of text the search asks for as the visitor types. */
export const MIN_TYPED_LENGTH = 2;

/**
 * Whether typed text is searched as it is typed: no text (every result again) or at least
 * MIN_TYPED_LENGTH characters, spaces at the ends left out. Shorter text waits for more typing or
 * for the Search button, which always searches.
 */
export function searchesAsTyped(text: string): boolean {
  const length = text.trim().length;
  return length === 0 || length >= MIN_TYPED_LENGTH;
}

/** One API call: `GET <path>?<query>`. */
export interface SearchRequest {
  path: SearchMode;
  query: Record<string, string | number | boolean>;
}

/** The call for a search: unset filters are left out, `online` only in services mode. */
export function searchRequest(state: SearchState, pageSize: number): SearchRequest {
  const query: SearchRequest['query'] = { page: state.page, pageSize };
  const q = state.q.trim();
  if (q) query.q = q;
  if (state.country) query.country = state.country;
  if (state.category && state.category !== 'all') query.category = state.category;
  if (state.mode === 'services' && state.online) query.online = true;
  return { path: state.mode, query };
}

/** What the search needs of an answer (a page of services or of vacancies). */
export interface SearchAnswer {
  total: number;
  /** True when `total` is a lower bound: the server counted that many matches and stopped. */
  totalIsEstimate?: boolean;
  pageSize: number;
}

/**
 * The results line in the chosen language: `<key>` with the total (`Results: 12`), or
 * `<key>_estimate` when the total is a lower bound (`Results: 1,000+`). The count is formatted
 * for the language (1,000 in English, 1 000 in Ukrainian).
 */
export function resultsText(
  t: Translate,
  lang: LocaleCode,
  key: string,
  answer: SearchAnswer | undefined,
): string {
  const count = new Intl.NumberFormat(LOCALE_DEFINITIONS[lang].bcp47).format(answer?.total ?? 0);
  return t(answer?.totalIsEstimate ? `${key}_estimate` : key, { count });
}

/** How many pages the answer has (at least 1). */
export const pageCount = (answer: SearchAnswer | undefined): number =>
  answer ? Math.max(1, Math.ceil(answer.total / answer.pageSize)) : 1;

/**
 * The home page's search from its URL, so a link can be shared and Back works:
 * `?mode=vacancies&view=list&q=перукарня&country=PL&category=beauty_and_health&online=1&page=2`.
 * Anything unknown falls back to the default.
 */
export function readSearchUrl(params: URLSearchParams): UrlSearchState {
  const category = params.get('category') ?? '';
  const country = (params.get('country') ?? '').toUpperCase();
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return {
    mode: params.get('mode') === 'vacancies' ? 'vacancies' : 'services',
    view: params.get('view') === 'list' ? 'list' : 'map',
    q: (params.get('q') ?? '').slice(0, LIMITS.searchQueryMax),
    country: /^[A-Z]{2}$/.test(country) ? country : '',
    category:
      (CATEGORY_KEYS as readonly string[]).includes(category) || category === 'empty'
        ? category
        : '',
    online: params.get('online') === '1',
    page: Number.isFinite(page) && page > 1 ? page : 1,
  };
}

/**
 * The query-string changes for a change of the state (null removes a parameter). Defaults
 * (services, map, no filters, page 1) are left out of the URL.
 */
export function searchUrlChange(change: Partial<UrlSearchState>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if (change.mode !== undefined) out.mode = change.mode === 'services' ? null : change.mode;
  if (change.view !== undefined) out.view = change.view === 'map' ? null : change.view;
  if (change.q !== undefined) out.q = change.q.trim() || null;
  if (change.country !== undefined) out.country = change.country || null;
  if (change.category !== undefined) out.category = change.category || null;
  if (change.online !== undefined) out.online = change.online ? '1' : null;
  if (change.page !== undefined) out.page = change.page > 1 ? String(change.page) : null;
  return out;
}

/**
 * The search an alert follows ("Notify me about new results"): the text, country and category
 * of the search (a vacancy search's experience too); `online` and the page are no alert filters.
 */
export function alertSearchOf(
  state: Pick<SearchState, 'mode' | 'q' | 'country' | 'category'> & { experience?: string },
): AlertSearch {
  const filters = {
    ...(state.q.trim() ? { q: state.q.trim() } : {}),
    ...(state.country ? { country: state.country } : {}),
    category: state.category || 'all',
  };
  return (
    state.mode === 'vacancies'
      ? {
          kind: 'vacancies',
          filters: { ...filters, ...(state.experience ? { experience: state.experience } : {}) },
        }
      : { kind: 'services', filters }
  ) as AlertSearch;
}
