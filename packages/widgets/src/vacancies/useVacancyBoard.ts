import { useEffect, useState } from 'react';
import type { CategoryFilter } from '@poruch/core';
import type { Api } from '@poruch/core/lite';
import { useStore } from 'zustand';
import {
  createVacancyBoard,
  type VacancyBoard,
  type VacancyBoardState,
  type VacancyFilters,
} from './createVacancyBoard.js';

export interface UseVacancyBoardOptions {
  api: Api;
  serviceId?: string | undefined;
  country?: string | undefined;
  category?: CategoryFilter | undefined;
  pageSize?: number | undefined;
  /** The filters to start with (a host's search); the visitor's choices win afterwards. */
  initialFilters?: Partial<VacancyFilters> | undefined;
}

/**
 * The vacancy board's connector for React: a new board whenever the fixed options change,
 * keeping the visitor's filters, destroyed (call aborted, timers cleared) on unmount. The first
 * board only gives the first render its state; it never loads.
 */
export function useVacancyBoard(
  options: UseVacancyBoardOptions,
): [VacancyBoardState, VacancyBoard] {
  const { api, serviceId, country, category, pageSize } = options;
  const [board, setBoard] = useState(() =>
    createVacancyBoard({
      api,
      serviceId,
      country,
      category,
      pageSize,
      initialFilters: options.initialFilters,
    }),
  );
  useEffect(() => {
    const next = createVacancyBoard({
      api,
      serviceId,
      country,
      category,
      pageSize,
      initialFilters: board.store.getState().filters,
    });
    setBoard(next);
    next.reload();
    return () => next.destroy();
    // The board itself is not a dependency: it is what this effect replaces.
  }, [api, serviceId, country, category, pageSize]);
  return [useStore(board.store), board];
}
