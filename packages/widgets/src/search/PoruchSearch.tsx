import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import type { ServicePage } from '@poruch/core';
import { getCountries } from '@poruch/core/lite';
import { ErrorState } from '../shared/ErrorState.js';
import { categoryMessages } from '../shared/messages/categoryMessages.js';
import { countryNameMessages } from '../shared/messages/countryNameMessages.js';
import { homeMessages } from '../shared/messages/homeMessages.js';
import { useWidgetResource } from '../shared/useWidgetResource.js';
import { useWidget } from '../shared/WidgetContext.js';
import { WidgetShell, type WidgetBaseProps } from '../shared/WidgetShell.js';
import {
  filterQuery,
  type FocusEventDetail,
  type SearchEventDetail,
  type ServiceFilters,
} from '../map/filters.js';
import { CategoryOptions } from '../ui/CategoryOptions.js';
import { CountryOptions } from '../ui/CountryOptions.js';
import { SEARCH_PARTS, searchStyles } from './searchStyles.js';

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
}

const MESSAGES = [categoryMessages, countryNameMessages, homeMessages];

/** `<poruch-search>` as a React component: the business search with its filters and results. */
export function PoruchSearch(props: SearchProps) {
  return (
    <WidgetShell
      {...props}
      styles={searchStyles}
      parts={SEARCH_PARTS}
      messages={MESSAGES}
      handlers={props}
    >
      <SearchView {...props} />
    </WidgetShell>
  );
}

function SearchView(props: SearchProps) {
  const { t, lang, emit, siteBase } = useWidget();
  const id = useId();
  const channel = props.channel ?? '';
  const initial: ServiceFilters = {
    q: props.q ?? '',
    country: props.country ?? '',
    category: props.category ?? 'all',
    ...(props.online ? { online: true } : {}),
  };
  const initialKey = JSON.stringify(initial);
  const [draft, setDraft] = useState<ServiceFilters>(initial);
  const [applied, setApplied] = useState<ServiceFilters>(initial);
  // New attributes start a new search.
  const [seenKey, setSeenKey] = useState(initialKey);
  if (seenKey !== initialKey) {
    const next = JSON.parse(initialKey) as ServiceFilters;
    setSeenKey(initialKey);
    setDraft(next);
    setApplied(next);
  }

  const countries = useMemo(() => getCountries(t, lang), [t, lang]);
  const pageSize = Math.min(Math.max(props.pageSize ?? 10, 1), 50);
  const appliedKey = JSON.stringify(applied);

  const { data, error, status, reload } = useWidgetResource<ServicePage>(
    ({ api }, signal) =>
      api.get('services', {
        query: { q: applied.q, ...filterQuery(applied), page: 1, pageSize },
        signal,
      }),
    [appliedKey, pageSize],
  );

  useEffect(() => {
    emit<SearchEventDetail>('search', {
      channel,
      filters: JSON.parse(appliedKey) as ServiceFilters,
    });
  }, [appliedKey, channel, emit]);

  const apply = (next: ServiceFilters) => {
    setDraft(next);
    setApplied(next);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    apply(draft);
  };

  return (
    <section aria-label={t('widget.search_label')}>
      <form part="form" role="search" onSubmit={onSubmit}>
        <div className="field field--q" part="field">
          <label htmlFor={`${id}q`}>{t('widget.search_label')}</label>
          <input
            id={`${id}q`}
            part="input"
            type="search"
            value={draft.q ?? ''}
            placeholder={t('widget.search_placeholder')}
            onChange={(e) => setDraft({ ...draft, q: e.currentTarget.value })}
          />
        </div>
        <div className="field" part="field">
          <label htmlFor={`${id}c`}>{t('home.country_filter')}</label>
          <select
            id={`${id}c`}
            part="input"
            value={draft.country ?? ''}
            onChange={(e) => apply({ ...draft, country: e.currentTarget.value })}
          >
            <CountryOptions countries={countries} allLabel={t('widget.all_countries')} />
          </select>
        </div>
        <div className="field" part="field">
          <label htmlFor={`${id}k`}>{t('home.category_filter')}</label>
          <select
            id={`${id}k`}
            part="input"
            value={draft.category ?? 'all'}
            onChange={(e) => apply({ ...draft, category: e.currentTarget.value })}
          >
            <CategoryOptions allValue="all" t={t} />
          </select>
        </div>
        <div className="field field--check" part="field">
          <input
            id={`${id}o`}
            type="checkbox"
            checked={draft.online === true}
            onChange={(e) => {
              const { online: _drop, ...rest } = draft;
              apply(e.currentTarget.checked ? { ...rest, online: true } : rest);
            }}
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
          <p className="count" part="count" role="status" aria-live="polite">
            {status === 'loading' && !data
              ? t('widget.loading')
              : t('widget.results', { count: data?.total ?? 0 })}
          </p>
          <ul className="results" part="results" aria-busy={status === 'loading'}>
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
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
                {s.lat !== null && s.lng !== null && (
                  <div className="actions">
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
                  </div>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
