import { useEffect, useId, useMemo, useState } from 'react';
import { LIMITS, getCountries, isLocaleCode, type LocaleCode } from '@poruch/core';
import { CategoryOptions, CountryOptions } from '@poruch/widgets';
import { useApp, useConfig } from '../../app/context.js';
import { useQuery } from '../../router/index.js';
import { LanguageOptions } from '../../ui/LanguageSwitcher.js';
import { EmbedPreview } from './EmbedPreview.js';
import { ServicePicker } from './ServicePicker.js';
import { SnippetBox } from './SnippetBox.js';
import {
  EMBED_THEMES,
  EMBED_WIDGETS,
  HEIGHT_RANGE,
  WIDGET_FIELDS,
  embedSnippet,
  widgetAttributes,
  type EmbedChoice,
  type EmbedTheme,
  type EmbedView,
  type EmbedWidget,
} from './snippet.js';
import './embed.css';

/** Each widget's name and what it shows (catalogue keys, written out for the key test). */
const WIDGET_TEXTS: Record<EmbedWidget, { label: string; description: string }> = {
  map: { label: 'embed.widget_map', description: 'embed.widget_map_hint' },
  search: { label: 'embed.widget_search', description: 'embed.widget_search_hint' },
  vacancies: { label: 'embed.widget_vacancies', description: 'embed.widget_vacancies_hint' },
  report: { label: 'embed.widget_report', description: 'embed.widget_report_hint' },
};

const THEME_TEXTS: Record<EmbedTheme, { label: string }> = {
  light: { label: 'embed.theme_light' },
  dark: { label: 'embed.theme_dark' },
  auto: { label: 'embed.theme_auto' },
};

const isWidget = (v: string | null): v is EmbedWidget =>
  (EMBED_WIDGETS as readonly string[]).includes(v ?? '');

/** The height field's text as pixels: null when empty or outside the range. */
function parseHeight(text: string): number | null {
  const n = Number(text);
  return text.trim() && Number.isInteger(n) && n >= HEIGHT_RANGE.min && n <= HEIGHT_RANGE.max
    ? n
    : null;
}

/** `value` once it has stayed the same for `ms` (the search text: one load per pause, not per key). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The embed builder (`/embed`): a person without code picks a widget, its filters, the map's start
 * view (by moving the preview map), the language, theme and height, sees the real widget with
 * those attributes and copies the snippet (the exact version's loader with its SRI hash, from
 * `GET /env`). `?widget=vacancies&service=<id>` opens it with a service's vacancy board (the
 * dashboard's "Put your vacancies on your site").
 */
export default function EmbedBuilder() {
  const { t, locale } = useApp();
  const config = useConfig();
  const [params] = useQuery();
  const id = useId();
  const countries = useMemo(() => getCountries(t, locale), [t, locale]);

  const [widget, setWidget] = useState<EmbedWidget>(() => {
    const w = params.get('widget');
    return isWidget(w) ? w : 'map';
  });
  const [serviceId, setServiceId] = useState(() => params.get('service') ?? '');
  const [lang, setLang] = useState<LocaleCode>(locale);
  const [theme, setTheme] = useState<EmbedTheme>('light');
  const [country, setCountry] = useState('');
  const [category, setCategory] = useState('');
  const [q, setQ] = useState('');
  const [view, setView] = useState<EmbedView | null>(null);
  const [heightText, setHeightText] = useState('');
  const settledQ = useSettled(q, 400);
  const height = parseHeight(heightText);
  const heightInvalid = heightText.trim() !== '' && height === null;

  const choice: EmbedChoice = {
    widget,
    lang,
    theme,
    country,
    category,
    q: settledQ,
    serviceId,
    view,
    height,
  };
  const fields = WIDGET_FIELDS[widget];
  const filtersApply = !(fields.includes('service') && serviceId);
  const release = config?.widgets ?? null;
  const attributes = widgetAttributes(choice);

  return (
    <div className="page embed" data-screen="embed">
      <h1>{t('embed.title')}</h1>
      <p className="embed__lead">{t('embed.lead')}</p>
      <div className="embed__grid">
        <form className="embed__form" onSubmit={(e) => e.preventDefault()}>
          <fieldset className="embed__choice">
            <legend>{t('embed.widget')}</legend>
            <div className="embed__options">
              {EMBED_WIDGETS.map((w) => (
                <label key={w} className="embed__option">
                  <input
                    type="radio"
                    name={`${id}-widget`}
                    value={w}
                    checked={widget === w}
                    onChange={() => setWidget(w)}
                  />
                  <span>
                    <strong>{t(WIDGET_TEXTS[w].label)}</strong>
                    <span className="embed__hint">{t(WIDGET_TEXTS[w].description)}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>

          {fields.includes('service') && (
            <ServicePicker
              serviceId={serviceId}
              required={widget === 'report'}
              onChange={setServiceId}
            />
          )}
          {fields.includes('q') && (
            <div className="field">
              <label htmlFor={`${id}-q`}>{t('embed.q')}</label>
              <input
                id={`${id}-q`}
                type="search"
                value={q}
                maxLength={LIMITS.searchQueryMax}
                onChange={(e) => setQ(e.target.value)}
              />
            </div>
          )}
          {fields.includes('country') && filtersApply && (
            <div className="field">
              <label htmlFor={`${id}-country`}>{t('embed.country')}</label>
              <select
                id={`${id}-country`}
                value={country}
                onChange={(e) => setCountry(e.target.value)}
              >
                <CountryOptions countries={countries} allLabel={t('home_page.all_countries')} />
              </select>
            </div>
          )}
          {fields.includes('category') && filtersApply && (
            <div className="field">
              <label htmlFor={`${id}-category`}>{t('embed.category')}</label>
              <select
                id={`${id}-category`}
                value={category}
                onChange={(e) => setCategory(e.target.value)}
              >
                <CategoryOptions allValue="" t={t} />
              </select>
            </div>
          )}
          {fields.includes('view') && (
            <div className="embed__view">
              <p className="embed__hint" id={`${id}-view`}>
                {view
                  ? t('embed.view_set', {
                      // Not `lng`: i18next reads that option as the language.
                      latitude: view.lat.toFixed(2),
                      longitude: view.lng.toFixed(2),
                      zoom: view.zoom,
                    })
                  : t('embed.view_hint')}
              </p>
            </div>
          )}

          <div className="embed__row">
            <div className="field">
              <label htmlFor={`${id}-lang`}>{t('embed.lang')}</label>
              <select
                id={`${id}-lang`}
                value={lang}
                onChange={(e) => isLocaleCode(e.target.value) && setLang(e.target.value)}
              >
                <LanguageOptions />
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-theme`}>{t('embed.theme')}</label>
              <select
                id={`${id}-theme`}
                value={theme}
                onChange={(e) => setTheme(e.target.value as EmbedTheme)}
              >
                {EMBED_THEMES.map((th) => (
                  <option key={th} value={th}>
                    {t(THEME_TEXTS[th].label)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {fields.includes('height') && (
            <div className="field">
              <label htmlFor={`${id}-height`}>{t('embed.height')}</label>
              <input
                id={`${id}-height`}
                type="number"
                inputMode="numeric"
                min={HEIGHT_RANGE.min}
                max={HEIGHT_RANGE.max}
                step={10}
                value={heightText}
                placeholder={t('embed.height_default')}
                aria-invalid={heightInvalid}
                aria-describedby={`${id}-height-hint`}
                onChange={(e) => setHeightText(e.target.value)}
              />
              <span
                id={`${id}-height-hint`}
                className={heightInvalid ? 'embed__hint embed__hint--error' : 'embed__hint'}
              >
                {t('embed.height_hint', HEIGHT_RANGE)}
              </span>
            </div>
          )}
        </form>

        <div className="embed__out">
          <section className="embed__section" aria-labelledby={`${id}-preview`}>
            <h2 id={`${id}-preview`}>{t('embed.preview')}</h2>
            {config === null ? (
              <p className="embed__status" role="status">
                {t('embed.loading')}
              </p>
            ) : release === null ? (
              <p className="embed__status embed__status--error" role="alert">
                {t('embed.unavailable')}
              </p>
            ) : widget === 'report' && !serviceId ? (
              <p className="embed__status">{t('embed.choose_service')}</p>
            ) : (
              <EmbedPreview
                release={release}
                tag={`poruch-${widget}`}
                attributes={attributes}
                onMove={setView}
              />
            )}
          </section>
          {release && (
            <SnippetBox
              snippet={embedSnippet(release, choice)}
              incomplete={widget === 'report' && !serviceId}
            />
          )}
        </div>
      </div>
    </div>
  );
}
