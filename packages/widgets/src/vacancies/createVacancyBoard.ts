import type { CategoryFilter, Experience, VacancyPage } from '@poruch/core';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { type Api, isAbort, type Query } from '@poruch/core/lite';

/** The experience filter: one of the experience levels, or `all` for no filter. */
export type ExperienceFilter = Experience | 'all';

/** What the visitor chose in the board's own controls. */
export interface VacancyFilters {
  /** Free-text search over position, skills and city. */
  q: string;
  /** Required experience, exact. `all` shows every level. */
  experience: ExperienceFilter;
  /** Only vacancies whose open flag is on. */
  openOnly: boolean;
}

export interface VacancyBoardOptions {
  /** The widget's API client, to call `GET vacancies` with. */
  api: Api;
  /** Show one partner's vacancies only (the partner embed). Defaults to every service. */
  serviceId?: string | undefined;
  /** Two-letter country code of the services. Defaults to every country. */
  country?: string | undefined;
  /** Category key of the services, `all` or `empty`. Defaults to `all`. */
  category?: CategoryFilter | undefined;
  /** Vacancies per page, 1–100. Defaults to 10. */
  pageSize?: number | undefined;
  /** Milliseconds the text search waits for typing to stop. Defaults to 300. */
  debounceMs?: number | undefined;
  /** The first filters. Defaults to no text, every level, open vacancies only. */
  initialFilters?: Partial<VacancyFilters> | undefined;
}

export type VacancyBoardStatus = 'loading' | 'ready' | 'error';

export interface VacancyBoardState {
  status: VacancyBoardStatus;
  filters: VacancyFilters;
  page: number;
  pageSize: number;
  /** The current page's vacancies; kept while the next page loads. */
  items: VacancyPage['items'];
  total: number;
  /** The failure of the last load (an ApiError), or null. */
  error: unknown;
}

export interface VacancyBoard {
  readonly store: StoreApi<VacancyBoardState>;
  /** Changes filters; text waits for the debounce, the rest load at once. Back to page 1. */
  setFilters(patch: Partial<VacancyFilters>): void;
  /** Loads a page (1-based). */
  setPage(page: number): void;
  /** Loads the current page (again): call it once to start, and after an error. */
  reload(): void;
  /** Aborts the call in flight and drops pending timers. */
  destroy(): void;
}

export const DEFAULT_VACANCY_FILTERS: VacancyFilters = { q: '', experience: 'all', openOnly: true };

/** Pages of a result, at least 1. */
export const pageCount = (total: number, pageSize: number): number =>
  Math.max(1, Math.ceil(total / pageSize));

/**
 * The logic of the vacancy board: filters, paging and `GET vacancies`, with the latest call
 * winning (older calls are aborted). Shared by the React component and the custom element.
 * Nothing loads until the first {@link VacancyBoard.reload}.
 */
export function createVacancyBoard(options: VacancyBoardOptions): VacancyBoard {
  const pageSize = Math.min(100, Math.max(1, options.pageSize ?? 10));
  const debounceMs = options.debounceMs ?? 300;
  const store = createStore<VacancyBoardState>(() => ({
    status: 'loading',
    filters: { ...DEFAULT_VACANCY_FILTERS, ...options.initialFilters },
    page: 1,
    pageSize,
    items: [],
    total: 0,
    error: null,
  }));
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let destroyed = false;

  const load = async () => {
    if (destroyed) return;
    controller?.abort();
    const own = new AbortController();
    controller = own;
    const { filters, page } = store.getState();
    store.setState({ status: 'loading', error: null });
    const query: Query = {
      page,
      pageSize,
      openOnly: filters.openOnly,
    };
    if (filters.q.trim()) query.q = filters.q.trim().slice(0, 200);
    if (filters.experience !== 'all') query.experience = filters.experience;
    if (options.serviceId) query.serviceId = options.serviceId;
    if (options.country) query.country = options.country;
    if (options.category && options.category !== 'all') query.category = options.category;
    try {
      const result = await options.api.get<VacancyPage>('vacancies', {
        query,
        signal: own.signal,
      });
      if (own !== controller || destroyed) return;
      store.setState({ status: 'ready', items: result.items, total: result.total });
    } catch (e) {
      if (own !== controller || destroyed || own.signal.aborted || isAbort(e)) return;
      store.setState({ status: 'error', error: e });
    }
  };

  const schedule = (delay: number) => {
    clearTimeout(timer);
    if (delay <= 0) void load();
    else timer = setTimeout(() => void load(), delay);
  };

  return {
    store,
    setFilters(patch) {
      const onlyText = Object.keys(patch).every((k) => k === 'q');
      store.setState((s) => ({ filters: { ...s.filters, ...patch }, page: 1 }));
      schedule(onlyText ? debounceMs : 0);
    },
    setPage(page) {
      const { total } = store.getState();
      const next = Math.min(Math.max(1, Math.floor(page)), pageCount(total, pageSize));
      store.setState({ page: next });
      schedule(0);
    },
    reload: () => schedule(0),
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      controller?.abort();
    },
  };
}
