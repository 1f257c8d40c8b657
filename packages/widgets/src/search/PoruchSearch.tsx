import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import type { ServicePage } from '@poruch/core';
import { confirmationLabel, getCountries } from '@poruch/core/lite';
import { ErrorState } from '../shared/ErrorState.js';
import { categoryMessages } from '../shared/messages/categoryMessages.js';
import { countryNameMessages } from '../shared/messages/countryNameMessages.js';
import { homeMessages } from '../shared/messages/homeMessages.js';
import { alertsMessages } from '../shared/messages/alertsMessages.js';
import { fieldMessages } from '../shared/messages/fieldMessages.js';
import { validationMessages } from '../shared/messages/validationMessages.js';
import { AlertButton } from '../ui/AlertButton.js';
import { ALERT_DIALOG_CSS } from '../ui/alertDialogStyles.js';
import { useWidgetResource } from '../shared/useWidgetResource.js';
import { useWidget } from '../shared/WidgetContext.js';
import { WidgetShell, type WidgetBaseProps } from '../shared/WidgetShell.js';
import {
  type FocusEventDetail,
  type SearchEventDetail,
  type ServiceFilters,
} from '../map/filters.js';
import { CategoryOptions } from '../ui/CategoryOptions.js';
import { CountryOptions } from '../ui/CountryOptions.js';
import { SkeletonRows, type SkeletonLine } from '../ui/Skeleton.js';
import {
  alertSearchOf,
  changeSearch,
  NEW_SEARCH,
  resultsText,
  searchRequest,
  type SearchState,
} from './searchModel.js';
import { SEARCH_PARTS, searchStyles } from './searchStyles.js';
import { useSearchAsYouType, useSettled } from './useSearchAsYouType.js';

export interface SearchProps extends WidgetBaseProps {
  /** The search text to start with. Defaults to none. */
  q?: string;
  /** ISO country code to start with. Defaults to every country. */
  country?: string;
  /** Category key to start with. Defaults to `all`. */
  category?: string;
  /** Start with "online only" ticked. Defaults to false. */
  online?: boolean;
  /** Pairs the search with maps of the same `channel`. Defaults to `''`. */
  channel?: string;
  /** Results per page, 1–50. Defaults to 10. */
  pageSize?: number;
  /** Called with the filters after each search; `poruch:search` carries them too. */
  onSearch?: (detail: SearchEventDetail) => void;
  /**
   * Shows "Notify me about new results": a visitor subscribes an e-mail address to new services
   * of the current search. Attribute `alerts`. Defaults to false.
   */
  alerts?: boolean;
}

const MESSAGES = [
  alertsMessages,
  categoryMessages,
  countryNameMessages,
  fieldMessages,
  homeMessages,
  validationMessages,
];

/** A result row's lines (search/searchStyles.ts fixes their heights), for its loading skeleton. */
const RESULT_LINES: readonly SkeletonLine[] = [
  ['h3', '', true],
  ['span', 'muted', true],
  ['div', 'actions'],
];

/** `<poruch-search>` as a React component: the business search with its filters and results. */
export function PoruchSearch(props: SearchProps) {
  return (
    <WidgetShell
      {...props}
      styles={searchStyles + ALERT_DIALOG_CSS}
      parts={SEARCH_PARTS}
      messages={MESSAGES}
      handlers={props}
    >
      <SearchView {...props} />
    </WidgetShell>
  );
}

/** The filters of a search, as `poruch:search` carries them: `online` only when ticked. */
const filtersOf = (s: SearchState): ServiceFilters => ({
  q: s.q,
  country: s.country,
  category: s.category,
  ...(s.online ? { online: true } : {}),
});

function SearchView(props: SearchProps) {
  const { t, lang, emit, siteBase, api } = useWidget();
  const id = useId();
  const channel = props.channel ?? '';
  const initial: SearchState = changeSearch(NEW_SEARCH, {
    q: props.q ?? '',
    country: props.country ?? '',
    category: props.category ?? 'all',
    online: props.online === true,
  });
  const initialKey = JSON.stringify(initial);
  const [draft, setDraft] = useState<SearchState>(initial);
  const [applied, setApplied] = useState<SearchState>(initial);
  // New attributes start a new search.
  const [seenKey, setSeenKey] = useState(initialKey);
  if (seenKey !== initialKey) {
    setSeenKey(initialKey);
    setDraft(initial);
    setApplied(initial);
  }

  const countries = useMemo(() => getCountries(t, lang), [t, lang]);
  const pageSize = Math.min(Math.max(props.pageSize ?? 10, 1), 50);
  const appliedKey = JSON.stringify(applied);

  const { data, error, status, reload } = useWidgetResource<ServicePage>(
    ({ api }, signal) => {
      const { path, query } = searchRequest(applied, pageSize);
      return api.get(path, { query, signal });
    },
    [appliedKey, pageSize],
  );

  useEffect(() => {
    emit<SearchEventDetail>('search', {
      channel,
      filters: filtersOf(JSON.parse(appliedKey) as SearchState),
    });
  }, [appliedKey, channel, emit]);

  const apply = (change: Partial<SearchState>) => {
    const next = changeSearch(draft, change);
    setDraft(next);
    setApplied(next);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    apply({});
  };
  // As the visitor types: the text searched once typing pauses; the other filters stay as shown.
  useSearchAsYouType(draft.q, applied.q, (q) => apply({ q }));

  const countText =
    status === 'loading' && !data
      ? t('widget.loading')
      : resultsText(t, lang, 'widget.results', data);
  // Told to screen readers once it stops changing (not after every typed letter's answer).
  const settledCount = useSettled(countText);

  return (
    <section aria-label={t('widget.search_label')}>
      <form part="form" role="search" onSubmit={onSubmit}>
        <div className="field field--q" part="field">
          <label htmlFor={`${id}q`}>{t('widget.search_label')}</label>
          <input
            id={`${id}q`}
            part="input"
            type="search"
            value={draft.q}
            placeholder={t('widget.search_placeholder')}
            onChange={(e) => setDraft({ ...draft, q: e.currentTarget.value })}
          />
        </div>
        <div className="field" part="field">
          <label htmlFor={`${id}c`}>{t('home.country_filter')}</label>
          <select
            id={`${id}c`}
            part="input"
            value={draft.country}
            onChange={(e) => apply({ country: e.currentTarget.value })}
          >
            <CountryOptions countries={countries} allLabel={t('widget.all_countries')} />
          </select>
        </div>
        <div className="field" part="field">
          <label htmlFor={`${id}k`}>{t('home.category_filter')}</label>
          <select
            id={`${id}k`}
            part="input"
            value={draft.category}
            onChange={(e) => apply({ category: e.currentTarget.value })}
          >
            <CategoryOptions allValue="all" t={t} />
          </select>
        </div>
        <div className="field field--check" part="field">
          <input
            id={`${id}o`}
            type="checkbox"
            checked={draft.online}
            onChange={(e) => apply({ online: e.currentTarget.checked })}
          />
          <label htmlFor={`${id}o`}>{t('widget.online_filter')}</label>
        </div>
        <button type="submit" className="poruch-button" part="button">
          {t('common.search')}
        </button>
      </form>
      {error !== undefined ? (
        <ErrorState error={error} onRetry={reload} />
      ) : (
        <>
          <p className="count" part="count" aria-hidden="true">
            {countText}
          </p>
          <p className="poruch-visually-hidden" role="status">
            {settledCount}
          </p>
          {props.alerts && (
            <AlertButton
              className="poruch-button alert-button"
              part="button alert-button"
              api={api}
              t={t}
              locale={lang}
              search={() => alertSearchOf(applied)}
            />
          )}
          <ul className="results" part="results" aria-busy={status === 'loading'}>
            {!data && <SkeletonRows count={pageSize} className="result" lines={RESULT_LINES} />}
            {data?.items.map((s) => (
              <li key={s.id} className="result" part="result">
                <h3 part="result-title">
                  <a href={`${siteBase}services/${encodeURIComponent(s.id)}`} target="_top">
                    {s.name}
                  </a>
                </h3>
                <span className="muted">
                  {[
                    t(`country_name.${s.countryCode}`),
                    s.category ? t(`category.${s.category}`) : '',
                    s.isOnline ? t('widget.online') : s.address,
                    // "Not confirmed since…" (a service its owner has not confirmed this year).
                    confirmationLabel(t, lang, s, { overdueOnly: true }),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
                <div className="actions">
                  {s.lat !== null && s.lng !== null && (
                    <button
                      type="button"
                      className="link"
                      onClick={() =>
                        emit<FocusEventDetail>('focus', {
                          channel,
                          id: s.id,
                          lat: s.lat!,
                          lng: s.lng!,
                        })
                      }
                    >
                      {t('widget.show_on_map')}
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
