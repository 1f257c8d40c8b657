import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import {
  LIMITS,
  confirmationLabel,
  getCountries,
  type ServicePage,
  type VacancyPage,
} from '@poruch/core';
import {
  ALERT_DIALOG_CSS,
  AlertButton,
  alertSearchOf,
  CategoryOptions,
  changeSearch,
  CountryOptions,
  pageCount,
  readSearchUrl,
  resultsText,
  searchRequest,
  searchUrlChange,
  type UrlSearchState,
  useSearchAsYouType,
  useSettled,
} from '@poruch/widgets';
import { useApp, useConfig } from '../../app/context.js';
import { alertPushOffer } from '../../pwa/push.js';
import { SocialBlock } from '../../chrome/SocialBlock.js';
import { Link, useQuery } from '../../router/index.js';
import { useNearViewport } from '../../ui/useNearViewport.js';

const PAGE_SIZE = 20;

/** The map widget (Leaflet) loads only when the map view is shown and near the screen. */
const HomeMap = lazy(() => import('./HomeMap.js'));

type Results =
  | { kind: 'services'; key: string; page: ServicePage }
  | { kind: 'vacancies'; key: string; page: VacancyPage }
  | null;

/**
 * Home: the business search, the vacancy search and the map/list switch. Everything the visitor
 * chooses is in the URL (the search model of @poruch/widgets, shared with `<poruch-search>`), so a
 * link can be shared and Back undoes a step.
 * The map view shows `<poruch-map>` (the widget's React component, HomeMap.tsx) with the same
 * country, category, online filters and, for services, the same `q`, above the result list: the
 * map shows the services the list counts. The vacancy search stays the site's own list: the widgets' VacancyBoard keeps
 * its text, page and filters in internal state and reports no changes, so the URL could not hold
 * them.
 */
export default function HomePage() {
  const { t, locale, api } = useApp();
  const vapidPublicKey = useConfig()?.vapidPublicKey;
  // The installed app offers pushes with an alert (not a browser tab, not a widget).
  const pushOffer = useMemo(() => alertPushOffer(vapidPublicKey), [vapidPublicKey]);
  const [params, setQuery] = useQuery();
  const state = useMemo(() => readSearchUrl(params), [params]);
  const [draft, setDraft] = useState(state.q);
  const [shownQ, setShownQ] = useState(state.q);
  const [results, setResults] = useState<Results>(null);
  const qId = useId();
  const countryId = useId();
  const categoryId = useId();
  const onlineId = useId();
  const countries = useMemo(() => getCountries(t, locale), [t, locale]);
  const [mapRef, mapNear] = useNearViewport();

  // The URL changed (Back, a shared link): the field shows its query.
  if (shownQ !== state.q) {
    setShownQ(state.q);
    setDraft(state.q);
  }

  const request = searchRequest(state, PAGE_SIZE);
  const requestKey = JSON.stringify(request);
  const loading = results?.key !== requestKey;

  useEffect(() => {
    const controller = new AbortController();
    const { path, query } = JSON.parse(requestKey) as typeof request;
    // The server has checked its answer: it is typed here, not parsed again.
    api
      .get<ServicePage | VacancyPage>(path, { query, signal: controller.signal })
      .then((answer) => {
        if (controller.signal.aborted) return;
        // The answer of `path` is that kind's page.
        setResults({ kind: path, key: requestKey, page: answer } as Results);
      })
      // A failed search has shown its error toast; the old results stay.
      .catch(() => undefined);
    return () => controller.abort();
  }, [api, requestKey]);

  const update = (change: Partial<UrlSearchState>, replace = false) =>
    setQuery(searchUrlChange(changeSearch(state, change)), { replace });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    update({ q: draft });
  };
  // As the visitor types: the text searched once typing pauses. The first pause adds a history
  // entry and later ones replace that entry, so Back leaves the whole typed text at once (not a
  // letter at a time, and not the filters chosen before it); the Search button adds an entry.
  const typedEntry = useRef<string | null>(null);
  useSearchAsYouType(draft, state.q, (q) => {
    update({ q }, typedEntry.current === window.location.search);
    typedEntry.current = window.location.search;
  });

  const countText =
    loading && !results
      ? t('home_page.loading_results')
      : resultsText(t, locale, 'home.results', results?.page);
  // Told to screen readers once it stops changing (not after every typed letter's answer).
  const settledCount = useSettled(countText);

  const pages = pageCount(results?.page);

  return (
    <div className="home" data-screen="home">
      <section className="hero">
        <h1 className="hero__title">{t('home.title')}</h1>
        <p className="hero__intro">{t('app.tagline')}</p>
      </section>

      <section className="search-panel" aria-label={t('common.search')}>
        <div className="segmented" role="group" aria-label={t('home_page.search_mode')}>
          {(['services', 'vacancies'] as const).map((mode) => (
            <button
              key={mode}
              type="button"
              className="segmented__item"
              aria-pressed={state.mode === mode}
              onClick={() => update({ mode, category: state.category })}
            >
              {t(mode === 'services' ? 'home.business_search' : 'home.vacancy_search')}
            </button>
          ))}
        </div>

        <form className="search-form" role="search" onSubmit={onSubmit}>
          <div className="field field--grow">
            <label htmlFor={qId}>
              {t(state.mode === 'services' ? 'home.business_search' : 'home.vacancy_search')}
            </label>
            <input
              id={qId}
              type="search"
              name="q"
              value={draft}
              maxLength={LIMITS.searchQueryMax}
              placeholder={t(
                state.mode === 'services'
                  ? 'home.business_search_placeholder'
                  : 'home.vacancy_search_placeholder',
              )}
              onChange={(e) => setDraft(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={countryId}>{t('home.country_filter')}</label>
            <select
              id={countryId}
              value={state.country}
              onChange={(e) => update({ country: e.target.value })}
            >
              <CountryOptions countries={countries} allLabel={t('home_page.all_countries')} />
            </select>
          </div>
          <div className="field">
            <label htmlFor={categoryId}>{t('home.category_filter')}</label>
            <select
              id={categoryId}
              value={state.category}
              onChange={(e) => update({ category: e.target.value })}
            >
              <CategoryOptions allValue="" t={t} />
            </select>
          </div>
          <button type="submit" className="button search-form__submit">
            {t('home_page.submit')}
          </button>
          {state.mode === 'services' && (
            <div className="check search-form__online">
              <input
                id={onlineId}
                type="checkbox"
                checked={state.online}
                onChange={(e) => update({ online: e.target.checked })}
              />
              <label htmlFor={onlineId}>{t('home.online_filter')}</label>
            </div>
          )}
        </form>
      </section>

      <section className="results" aria-busy={loading}>
        <div className="results__bar">
          <p className="results__count" aria-hidden="true">
            {countText}
          </p>
          <p className="visually-hidden" role="status">
            {settledCount}
          </p>
          {/* The alert dialog's layout (the site's CSP allows inline styles; widgets adopt it). */}
          <style>{ALERT_DIALOG_CSS}</style>
          <AlertButton
            className="button button--secondary results__alert"
            api={api}
            t={t}
            locale={locale}
            search={() => alertSearchOf(state)}
            push={pushOffer}
          />
          <div className="segmented" role="group" aria-label={t('home_page.view_mode')}>
            {(['map', 'list'] as const).map((view) => (
              <button
                key={view}
                type="button"
                className="segmented__item"
                aria-pressed={state.view === view}
                onClick={() => setQuery(searchUrlChange({ view }))}
              >
                {t(view === 'map' ? 'home.map_view' : 'home.list_view')}
              </button>
            ))}
          </div>
        </div>
        {state.view === 'map' && (
          <div className="map-frame" data-testid="map-view" ref={mapRef}>
            {mapNear ? (
              <Suspense fallback={<p className="map-frame__loading">{t('app.loading')}</p>}>
                <HomeMap
                  lang={locale}
                  country={state.country}
                  category={state.category}
                  online={state.mode === 'services' && state.online}
                  q={state.mode === 'services' ? state.q : ''}
                />
              </Suspense>
            ) : (
              <p className="map-frame__loading">{t('app.loading')}</p>
            )}
          </div>
        )}
        <ResultList results={results} />

        {pages > 1 && (
          <nav className="pager" aria-label={t('common.page_of', { page: state.page, pages })}>
            <button
              type="button"
              className="button button--secondary"
              disabled={state.page <= 1}
              onClick={() => setQuery(searchUrlChange({ page: state.page - 1 }))}
            >
              {t('common.previous')}
            </button>
            <span>{t('common.page_of', { page: state.page, pages })}</span>
            <button
              type="button"
              className="button button--secondary"
              disabled={state.page >= pages}
              onClick={() => setQuery(searchUrlChange({ page: state.page + 1 }))}
            >
              {t('common.next')}
            </button>
          </nav>
        )}
      </section>
      <SocialBlock />
    </div>
  );
}

function ResultList({ results }: { results: Results }) {
  const { t, locale } = useApp();
  if (!results) return null;
  if (results.page.items.length === 0) return <p className="empty">{t('common.nothing_found')}</p>;
  if (results.kind === 'services') {
    return (
      <ul className="cards" data-testid="results">
        {results.page.items.map((s) => (
          <li key={s.id} className="card">
            <h2 className="card__title">
              <Link to={`/services/${s.id}`}>{s.name}</Link>
            </h2>
            <p className="card__meta">
              {s.category ? t(`category.${s.category}`) : t('category.empty')} ·{' '}
              {t(`country_name.${s.countryCode}`)}
            </p>
            <p className="card__text">{s.address}</p>
            {s.confirmation === 'overdue' && (
              <p className="card__meta" data-confirmation="overdue">
                {confirmationLabel(t, locale, s, { overdueOnly: true })}
              </p>
            )}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul className="cards" data-testid="results">
      {results.page.items.map((v) => (
        <li key={v.id} className="card">
          <h2 className="card__title">
            <Link to={`/services/${v.service.id}/vacancies`}>{v.name}</Link>
          </h2>
          <p className="card__meta">
            {t('vacancies.employer')}: {v.service.name} ·{' '}
            {t(`country_name.${v.service.countryCode}`)}
          </p>
          {v.salary && <p className="card__text">{t('vacancies.salary', { salary: v.salary })}</p>}
        </li>
      ))}
    </ul>
  );
}
