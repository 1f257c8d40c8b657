import { useState } from 'react';
import {
  LIMITS,
  REPORT_REASONS,
  categoryLabelKey,
  findByCode,
  flagUrl,
  reportInputSchema,
  serviceProfileSchema,
  usedMarkResultSchema,
  type ServiceProfile,
} from '@poruch/core';
import { useApp } from '../../app/context.js';
import { useSeo } from '../../app/seo.js';
import { FlagImage, TextField } from '../../forms/fields.js';
import { Notice, StateView } from '../../forms/Notice.js';
import { useForm } from '../../forms/useForm.js';
import { useResource } from '../../forms/useResource.js';
import { Link, useParams } from '../../router/index.js';
import '../../forms/forms.css';
import './profile.css';

const TABS = ['services', 'vacancies', 'contacts'] as const;
type Tab = (typeof TABS)[number];

const BROWSER_ID_KEY = 'poruch_browser_id';
const USED_KEY = 'poruch_used_services';

/** A random id of this browser, kept, so "I have used this service" counts once per browser. */
function browserId(): string {
  let id = localStorage.getItem(BROWSER_ID_KEY);
  if (!id) {
    id = crypto.randomUUID();
    localStorage.setItem(BROWSER_ID_KEY, id);
  }
  return id;
}

const usedIds = (): string[] => {
  try {
    return JSON.parse(localStorage.getItem(USED_KEY) ?? '[]') as string[];
  } catch {
    return [];
  }
};

/** Schema.org data of the profile: a LocalBusiness and a JobPosting per open vacancy. */
function jsonLd(s: ServiceProfile, url: string) {
  const business = {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    name: s.name,
    url,
    ...(s.descriptionUa || s.descriptionOther
      ? { description: s.descriptionUa || s.descriptionOther }
      : {}),
    ...(s.phone ? { telephone: s.phone } : {}),
    ...(s.website ? { sameAs: s.website } : {}),
    address: {
      '@type': 'PostalAddress',
      streetAddress: s.address,
      ...(s.addressDetails?.city ? { addressLocality: s.addressDetails.city } : {}),
      addressCountry: s.countryCode,
    },
    ...(s.lat !== null && s.lng !== null
      ? { geo: { '@type': 'GeoCoordinates', latitude: s.lat, longitude: s.lng } }
      : {}),
  };
  const jobs = s.vacancies
    .filter((v) => v.isOpen)
    .map((v) => ({
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: v.name,
      description: [v.description, v.requirements].filter(Boolean).join('\n\n') || v.name,
      datePosted: v.createdAt,
      hiringOrganization: {
        '@type': 'Organization',
        name: s.name,
        ...(s.website ? { sameAs: s.website } : {}),
      },
      jobLocation: {
        '@type': 'Place',
        address: {
          '@type': 'PostalAddress',
          streetAddress: s.address,
          addressCountry: s.countryCode,
        },
      },
      ...(s.isOnline ? { jobLocationType: 'TELECOMMUTE' } : {}),
    }));
  return [business, ...jobs];
}

/** The service profile (`/services/:id/:tab?`): tabs services, vacancies and contacts. */
export default function ProfileScreen() {
  const { t, api } = useApp();
  const params = useParams();
  const id = params.id ?? '';
  const tab: Tab = (TABS as readonly string[]).includes(params.tab ?? '')
    ? (params.tab as Tab)
    : 'services';
  const record = useResource(
    (signal) =>
      api.request('GET', `services/${encodeURIComponent(id)}`, {
        schema: serviceProfileSchema,
        signal,
      }),
    [id],
  );
  const s = record.status === 'ready' ? record.data : null;
  useSeo(
    s
      ? {
          title: s.name,
          description: (s.descriptionUa || s.descriptionOther || t('app.tagline')).slice(0, 160),
          path: `/services/${s.id}`,
          jsonLd: jsonLd(s, `${window.location.origin}/services/${s.id}`),
        }
      : undefined,
  );

  return (
    <article className="page profile" data-screen="profile">
      <Link to="/" className="profile__back">
        ← {t('service_profile.back_to_list')}
      </Link>
      {record.status === 'loading' && <StateView state="loading" />}
      {record.status === 'error' && (
        <StateView
          state="error"
          errorText={t('service_profile.not_found')}
          onRetry={record.reload}
        />
      )}
      {s && <Profile s={s} tab={tab} />}
    </article>
  );
}

function Profile({ s, tab }: { s: ServiceProfile; tab: Tab }) {
  const { t, locale } = useApp();
  const country = findByCode(s.countryCode, t)?.name ?? s.countryCode;
  const [primary, secondary] =
    locale === 'ua' ? [s.descriptionUa, s.descriptionOther] : [s.descriptionOther, s.descriptionUa];
  const openVacancies = s.vacancies.filter((v) => v.isOpen);
  return (
    <>
      <header className="profile__head card">
        <h1>{s.name}</h1>
        <p className="item__meta field__row">
          <FlagImage src={flagUrl(s.countryCode)} />
          <span>
            {country}
            {s.category && ` · ${t(categoryLabelKey(s.category))}`}
          </span>
        </p>
        <div className="item__head">
          {s.isPartner && (
            <span className="badge badge--partner">{t('service_profile.partner')}</span>
          )}
          {s.isOnline && <span className="badge">{t('service_profile.online')}</span>}
        </div>
        <UsedMark id={s.id} initial={s.usedCount} />
      </header>
      <nav className="tabs" aria-label={s.name}>
        {TABS.map((name) => (
          <Link
            key={name}
            to={`/services/${s.id}${name === 'services' ? '' : `/${name}`}`}
            replace
            className="tabs__tab"
            aria-current={tab === name ? 'page' : undefined}
          >
            {t(`service_profile.tab_${name}`)}
            {name === 'vacancies' && ` (${openVacancies.length})`}
          </Link>
        ))}
      </nav>
      <section className="card profile__panel" aria-label={t(`service_profile.tab_${tab}`)}>
        {tab === 'services' &&
          (primary || secondary ? (
            <>
              {primary && <p className="profile__text">{primary}</p>}
              {secondary && (
                <p className="profile__text" lang={locale === 'ua' ? undefined : 'uk'}>
                  {secondary}
                </p>
              )}
            </>
          ) : (
            <p className="state">{t('service_profile.no_description')}</p>
          ))}
        {tab === 'vacancies' &&
          (openVacancies.length === 0 ? (
            <p className="state">{t('vacancies.empty')}</p>
          ) : (
            <ul className="item-list">
              {openVacancies.map((v) => (
                <li key={v.id} className="item profile__vacancy">
                  <h2 className="item__title">{v.name}</h2>
                  <p className="item__meta">
                    {v.salary && <>{t('vacancies.salary', { salary: v.salary })} · </>}
                    {t('vacancies.experience', { experience: t(`experience.${v.experience}`) })}
                  </p>
                  {v.description && <p className="profile__text">{v.description}</p>}
                  {v.requirements && <p className="profile__text">{v.requirements}</p>}
                </li>
              ))}
            </ul>
          ))}
        {tab === 'contacts' && (
          <dl className="profile__contacts">
            {s.address && (
              <>
                <dt>{t('service_profile.address')}</dt>
                <dd>{s.address}</dd>
              </>
            )}
            {s.phone && (
              <>
                <dt>{t('service_profile.phone')}</dt>
                <dd>
                  <a href={`tel:${s.phone.replace(/[^+0-9]/g, '')}`}>{s.phone}</a>
                </dd>
              </>
            )}
            {s.website && (
              <>
                <dt>{t('service_profile.website')}</dt>
                <dd>
                  <a href={s.website} target="_blank" rel="noopener noreferrer nofollow">
                    {s.website}
                  </a>
                </dd>
              </>
            )}
            {!s.address && !s.phone && !s.website && <dd>—</dd>}
          </dl>
        )}
      </section>
      <ReportForm serviceId={s.id} />
    </>
  );
}

function UsedMark({ id, initial }: { id: string; initial: number }) {
  const { t, api, showToast } = useApp();
  const [count, setCount] = useState(initial);
  const [marked, setMarked] = useState(() => usedIds().includes(id));
  const [busy, setBusy] = useState(false);
  const mark = async () => {
    setBusy(true);
    try {
      const result = await api.request('POST', `services/${id}/used`, {
        json: { browserId: browserId() },
        schema: usedMarkResultSchema,
      });
      setCount(result.usedCount);
      setMarked(true);
      localStorage.setItem(USED_KEY, JSON.stringify([...usedIds(), id]));
      showToast({
        severity: 'success',
        summary: t('success.summary'),
        detail: t('success.used_marked'),
      });
    } catch {
      // The client has shown the error.
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="item__actions profile__used">
      <button
        type="button"
        className="button button--secondary"
        onClick={() => void mark()}
        disabled={busy || marked}
        aria-pressed={marked}
      >
        {t('home.used_service')}
      </button>
      <span className="item__meta" aria-live="polite">
        {t('home.used_count', { count })}
      </span>
    </div>
  );
}

function ReportForm({ serviceId }: { serviceId: string }) {
  const { t, api, showToast } = useApp();
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState(false);
  const form = useForm('report', { serviceId, reason: 'wrong_address', description: '' }, t);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.validate(reportInputSchema);
    if (!input) return;
    const done = await form.run(async () => {
      await api.request('POST', 'reports', { json: input });
      return true;
    });
    if (!done) return;
    setSent(true);
    setOpen(false);
    showToast({
      severity: 'success',
      summary: t('success.summary'),
      detail: t('success.report_sent'),
    });
  };
  return (
    <section className="profile__report">
      {sent && <Notice kind="success">{t('success.report_sent')}</Notice>}
      {!open ? (
        <button
          type="button"
          className="button button--link"
          aria-expanded={false}
          onClick={() => {
            setSent(false);
            setOpen(true);
          }}
        >
          {t('report_form.open')}
        </button>
      ) : (
        <form
          className="card form__section"
          onSubmit={submit}
          noValidate
          aria-labelledby="report-title"
        >
          <h2 id="report-title">{t('report_form.title')}</h2>
          <p className="field__hint">{t('report_form.text')}</p>
          <fieldset className="form__section report__reasons">
            <legend className="field__label">{t('field.reason')}</legend>
            {REPORT_REASONS.map((r) => (
              <div className="field field--radio" key={r}>
                <input
                  type="radio"
                  id={`report-reason-${r}`}
                  name="report-reason"
                  checked={form.values.reason === r}
                  onChange={() => form.set('reason', r)}
                />
                <label htmlFor={`report-reason-${r}`}>{t(`report_reason.${r}`)}</label>
              </div>
            ))}
          </fieldset>
          <TextField
            {...form.bind('description')}
            label={t('field.description')}
            rows={3}
            maxLength={LIMITS.reportDescriptionMax}
          />
          <div className="form__actions">
            <button type="submit" className="button" disabled={form.submitting}>
              {t('report_form.submit')}
            </button>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setOpen(false)}
            >
              {t('common.cancel')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
