import { CATEGORY_KEYS } from '@poruch/core';

/** Which search the home page shows. */
export type SearchMode = 'services' | 'vacancies';
/** How results are shown. */
export type ResultView = 'map' | 'list';

/**
 * The home page's search, kept in the URL so a link can be shared and Back works:
 * `?mode=vacancies&view=list&q=перукарня&country=PL&category=beauty_and_health&online=1&page=2`.
 * Defaults (services, map, no filters, page 1) are left out of the URL.
 */
export interface SearchState {
  mode: SearchMode;
  view: ResultView;
  q: string;
  country: string;
  category: string;
  online: boolean;
  page: number;
}

export function readSearchState(params: URLSearchParams): SearchState {
  const category = params.get('category') ?? '';
  const country = (params.get('country') ?? '').toUpperCase();
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return {
    mode: params.get('mode') === 'vacancies' ? 'vacancies' : 'services',
    view: params.get('view') === 'list' ? 'list' : 'map',
    q: (params.get('q') ?? '').slice(0, 200),
    country: /^[A-Z]{2}$/.test(country) ? country : '',
    category:
      (CATEGORY_KEYS as readonly string[]).includes(category) || category === 'empty'
        ? category
        : '',
    online: params.get('online') === '1',
    page: Number.isFinite(page) && page > 1 ? page : 1,
  };
}

/** The query-string changes for a new state (null removes a parameter). */
export function toQuery(state: Partial<SearchState>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if (state.mode !== undefined) out.mode = state.mode === 'services' ? null : state.mode;
  if (state.view !== undefined) out.view = state.view === 'map' ? null : state.view;
  if (state.q !== undefined) out.q = state.q.trim() || null;
  if (state.country !== undefined) out.country = state.country || null;
  if (state.category !== undefined) out.category = state.category || null;
  if (state.online !== undefined) out.online = state.online ? '1' : null;
  if (state.page !== undefined) out.page = state.page > 1 ? String(state.page) : null;
  return out;
}
