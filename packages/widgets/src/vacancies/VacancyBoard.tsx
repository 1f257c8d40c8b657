import { useEffect } from 'react';
import type { VacancyFilters } from './createVacancyBoard.js';
import type { CategoryFilter } from '@poruch/core';
import { ErrorState } from '../shared/ErrorState.js';
import { useWidget } from '../shared/WidgetContext.js';
import { categoryMessages } from '../shared/messages/categoryMessages.js';
import { countryNameMessages } from '../shared/messages/countryNameMessages.js';
import { experienceMessages } from '../shared/messages/experienceMessages.js';
import { alertsMessages } from '../shared/messages/alertsMessages.js';
import { validationMessages } from '../shared/messages/validationMessages.js';
import { alertSearchOf } from '../search/searchModel.js';
import { AlertButton } from '../ui/AlertButton.js';
import { ALERT_DIALOG_CSS } from '../ui/alertDialogStyles.js';
import { fieldMessages } from '../shared/messages/fieldMessages.js';
import { flagMessages } from '../shared/messages/flagMessages.js';
import { homeMessages } from '../shared/messages/homeMessages.js';
import { vacanciesMessages } from '../shared/messages/vacanciesMessages.js';
import { WidgetShell, type WidgetBaseProps } from '../shared/WidgetShell.js';
import { baseStyles } from '../ui/baseStyles.js';
import { flagBase } from '../ui/flagBase.js';
import { Pagination } from '../ui/Pagination.js';
import { UI_PARTS } from '../ui/parts.js';
import { skeletonStyles } from '../ui/Skeleton.js';
import { StatusMessage } from '../ui/StatusMessage.js';
import { pageCount } from './createVacancyBoard.js';
import { vacancyStyles } from './styles.js';
import { useVacancyBoard } from './useVacancyBoard.js';
import { VacancyFilterBar } from './VacancyFilterBar.js';
import { VacancyList, VacancySkeleton } from './VacancyList.js';

export interface VacancyBoardProps extends WidgetBaseProps {
  /** One partner's vacancies only (the partner embed). Attribute `service-id`. Defaults to every service. */
  serviceId?: string;
  /** Two-letter country code of the employers. Attribute `country`. Defaults to every country. */
  country?: string;
  /** Category key of the employers, `all` or `empty`. Attribute `category`. Defaults to `all`. */
  category?: CategoryFilter;
  /** Vacancies per page, 1–100. Attribute `page-size`. Defaults to 10. */
  pageSize?: number;
  /**
   * The search from the host (React only, e.g. the page's URL): applied whenever it changes;
   * the fields left out keep what the visitor chose. Defaults to none.
   */
  filters?: Partial<VacancyFilters>;
  /** Called with every filter the visitor changes; also `poruch:filters-change`. */
  onFiltersChange?: (filters: VacancyFilters) => void;
  /**
   * Shows "Notify me about new results": a visitor subscribes an e-mail address to new vacancies
   * of the current search (not on one partner's board, `serviceId`). Attribute `alerts`.
   * Defaults to false.
   */
  alerts?: boolean;
}

/** The `part`s of `<poruch-vacancies>`. */
export const VACANCY_PARTS = [...UI_PARTS, 'filters', 'list', 'vacancy'] as const;

/** The translation namespaces the widget uses beyond common, error and widget. */
const VACANCY_MESSAGES = [
  alertsMessages,
  categoryMessages,
  countryNameMessages,
  experienceMessages,
  fieldMessages,
  flagMessages,
  homeMessages,
  vacanciesMessages,
  validationMessages,
];

/**
 * The vacancy search and board (`GET vacancies`): text, experience and open-only filters,
 * pages, and loading, empty and error states. With `serviceId` it is one partner's board.
 * Fires `poruch:ready` and `poruch:error` (from the shell) as its state changes.
 */
export function VacancyBoard(props: VacancyBoardProps) {
  return (
    <WidgetShell
      {...props}
      styles={baseStyles + skeletonStyles + vacancyStyles + ALERT_DIALOG_CSS}
      parts={VACANCY_PARTS}
      handlers={props}
      messages={VACANCY_MESSAGES}
    >
      <Board {...props} />
    </WidgetShell>
  );
}

function Board({ serviceId, country, category, pageSize, filters, alerts }: VacancyBoardProps) {
  const { api, t, lang, setState, emit } = useWidget();
  const [state, board] = useVacancyBoard({
    api,
    serviceId,
    country,
    category,
    pageSize,
    initialFilters: filters,
  });
  const wanted = JSON.stringify(filters ?? {});

  // The host's search (its URL) changed: apply what differs from the board's.
  useEffect(() => {
    const patch = JSON.parse(wanted) as Partial<VacancyFilters>;
    const current = board.store.getState().filters;
    const differs = (Object.keys(patch) as (keyof VacancyFilters)[]).some(
      (k) => patch[k] !== current[k],
    );
    if (differs) board.setFilters(patch);
  }, [board, wanted]);

  const onFilters = (patch: Partial<VacancyFilters>) => {
    board.setFilters(patch);
    emit('filters-change', board.store.getState().filters);
  };
  const pages = pageCount(state.total, state.pageSize);

  useEffect(() => {
    setState(state.status, state.error ?? undefined);
  }, [state.status, state.error, setState]);

  return (
    <section
      className="board"
      aria-label={t('vacancies.search_title')}
      aria-busy={state.status === 'loading'}
    >
      <VacancyFilterBar filters={state.filters} t={t} onChange={onFilters} />
      {/* One partner's board has no alert: alerts follow a search of every employer. */}
      {alerts && !serviceId && (
        <AlertButton
          className="button button--secondary alert-button"
          part="button alert-button"
          api={api}
          t={t}
          locale={lang}
          search={() =>
            alertSearchOf({
              mode: 'vacancies',
              q: state.filters.q,
              country: country ?? '',
              category: category ?? '',
              experience: state.filters.experience === 'all' ? '' : state.filters.experience,
            })
          }
        />
      )}
      {state.status === 'error' ? (
        <ErrorState error={state.error} onRetry={board.reload} />
      ) : state.status !== 'loading' && state.items.length === 0 ? (
        <StatusMessage kind="empty" text={t('vacancies.empty')} />
      ) : (
        <>
          <p className="board__total" role="status">
            {state.items.length === 0
              ? t('widget.loading')
              : t('home.results', { count: state.total })}
          </p>
          {state.items.length === 0 ? (
            <VacancySkeleton count={state.pageSize} />
          ) : (
            <VacancyList
              items={state.items}
              t={t}
              flagBase={flagBase(api.base)}
              hideEmployer={!!serviceId}
              compact
            />
          )}
          <div className="board__pages">
            <Pagination
              page={state.page}
              pages={pages}
              label={t('vacancies.title')}
              previousLabel={t('common.previous')}
              nextLabel={t('common.next')}
              pageLabel={t('common.page_of', { page: state.page, pages })}
              onPage={board.setPage}
              disabled={state.status === 'loading'}
            />
          </div>
        </>
      )}
    </section>
  );
}
