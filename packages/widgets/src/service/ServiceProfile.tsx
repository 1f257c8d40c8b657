import { useEffect, useRef, useState, type MouseEvent } from 'react';
import type { ServiceProfile as Profile } from '@poruch/core';
import { categoryLabelKey, countryNameKey } from '@poruch/core/lite';
import { ReportForm } from '../report/ReportForm.js';
import { ErrorState } from '../shared/ErrorState.js';
import { useResource } from '../shared/useResource.js';
import { useWidget } from '../shared/WidgetContext.js';
import { useConnector } from '../useConnector.js';
import { Flag } from '../ui/Flag.js';
import { flagBase } from '../ui/flagBase.js';
import { StatusMessage } from '../ui/StatusMessage.js';
import { Tabs } from '../ui/Tabs.js';
import { VacancyList } from '../vacancies/VacancyList.js';
import { createUsedMark } from './createUsedMark.js';
import { safeWebHref, telHref } from './safeLinks.js';

/** The tabs of the profile, in order. */
export const PROFILE_TABS = ['services', 'vacancies', 'contacts'] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];

export interface ServiceProfileProps {
  serviceId: string;
  /** Where the back-to-list link goes. Without it the link is a button that only fires `poruch:back`. */
  backHref?: string | undefined;
  /** The tab shown first. Defaults to `services`. */
  tab?: ProfileTab | undefined;
}

/** The service profile inside a widget shell (`GET services/:id`). */
export function ServiceProfile({ serviceId, backHref, tab }: ServiceProfileProps) {
  const { t } = useWidget();
  const { data, error, loading, retry } = useResource<Profile>(
    ({ api }, signal) => api.get(`services/${encodeURIComponent(serviceId)}`, { signal }),
    [serviceId],
  );
  return (
    <div className="profile" part="profile">
      <BackLink serviceId={serviceId} href={backHref} />
      {error ? (
        <ErrorState error={error} onRetry={retry} />
      ) : loading && !data ? (
        <StatusMessage kind="loading" text={t('widget.loading')} />
      ) : data ? (
        <ProfileBody profile={data} initialTab={tab ?? 'services'} />
      ) : null}
    </div>
  );
}

function BackLink({ serviceId, href }: { serviceId: string; href: string | undefined }) {
  const { t, emit } = useWidget();
  const safe = href ? safeWebHref(new URL(href, location.href).href) : null;
  const onClick = (e: MouseEvent) => {
    // A listener that calls preventDefault() handles the navigation itself (a single-page app).
    if (!emit('back', { serviceId }) || !safe) e.preventDefault();
  };
  return safe ? (
    <a className="profile__back" part="back" href={safe} onClick={onClick}>
      ← {t('service_profile.back_to_list')}
    </a>
  ) : (
    <button
      type="button"
      className="button button--link profile__back"
      part="back"
      onClick={onClick}
    >
      ← {t('service_profile.back_to_list')}
    </button>
  );
}

function ProfileBody({ profile, initialTab }: { profile: Profile; initialTab: ProfileTab }) {
  const { t, lang, api, siteBase } = useWidget();
  const [tab, setTab] = useState<string>(initialTab);
  const [reporting, setReporting] = useState(false);
  const reportButton = useRef<HTMLButtonElement>(null);
  const [used, usedMark] = useConnector(
    () => createUsedMark(api, profile.id, profile.usedCount),
    [api, profile.id],
  );
  const primary = lang === 'ua' ? profile.descriptionUa : profile.descriptionOther;
  const secondary = lang === 'ua' ? profile.descriptionOther : profile.descriptionUa;
  const web = safeWebHref(profile.website);
  const tel = telHref(profile.phone);
  const country = t(countryNameKey(profile.countryCode));

  // The button is rendered again only after the state change, so it takes the focus then.
  const refocus = useRef(false);
  useEffect(() => {
    if (reporting || !refocus.current) return;
    refocus.current = false;
    reportButton.current?.focus();
  }, [reporting]);
  const closeReport = () => {
    refocus.current = true;
    setReporting(false);
  };

  return (
    <>
      <header className="profile__head">
        <h2 part="title">{profile.name}</h2>
        <p className="profile__meta">
          <Flag code={profile.countryCode} name={country} base={flagBase(siteBase)} />
          {profile.category && <span>{t(categoryLabelKey(profile.category))}</span>}
          {profile.isOnline && <span className="badge">{t('service_profile.online')}</span>}
          {profile.isPartner && (
            <span className="badge badge--open">{t('service_profile.partner')}</span>
          )}
        </p>
      </header>
      <div className="profile__used" part="used">
        <button
          type="button"
          className="button button--secondary"
          part="button used-button"
          aria-pressed={used.marked}
          disabled={used.sending || used.marked}
          onClick={() => void usedMark.mark()}
        >
          {t('home.used_service')}
        </button>
        <span className="muted" aria-live="polite">
          {t('home.used_count', { count: used.count })}
        </span>
        {used.marked && (
          <span role="status" className="muted">
            {t(used.already ? 'service_profile.used_already' : 'success.used_marked')}
          </span>
        )}
      </div>
      {used.error != null && <ErrorState error={used.error} />}
      <Tabs
        label={t('service_profile.tabs_label')}
        selected={tab}
        onSelect={setTab}
        tabs={[
          {
            id: 'services',
            label: t('service_profile.tab_services'),
            panel:
              primary || secondary ? (
                <div className="stack">
                  {primary && <p className="profile__text">{primary}</p>}
                  {secondary && (
                    <p className="profile__text muted" lang={lang === 'ua' ? undefined : 'uk'}>
                      {secondary}
                    </p>
                  )}
                </div>
              ) : (
                <p className="muted">{t('service_profile.no_description')}</p>
              ),
          },
          {
            id: 'vacancies',
            label: `${t('service_profile.tab_vacancies')} (${profile.vacancies.length})`,
            panel: profile.vacancies.length ? (
              <VacancyList items={profile.vacancies} t={t} flagBase={flagBase(siteBase)} />
            ) : (
              <p className="muted">{t('vacancies.empty')}</p>
            ),
          },
          {
            id: 'contacts',
            label: t('service_profile.tab_contacts'),
            panel:
              profile.address || profile.website || profile.phone ? (
                <dl className="contacts">
                  {profile.address && (
                    <>
                      <dt>{t('service_profile.address')}</dt>
                      <dd>{profile.address}</dd>
                    </>
                  )}
                  {profile.website && (
                    <>
                      <dt>{t('service_profile.website')}</dt>
                      <dd>
                        {web ? (
                          <a
                            href={web}
                            target="_blank"
                            rel="noopener noreferrer nofollow"
                            part="link"
                          >
                            {profile.website}
                          </a>
                        ) : (
                          profile.website
                        )}
                      </dd>
                    </>
                  )}
                  {profile.phone && (
                    <>
                      <dt>{t('service_profile.phone')}</dt>
                      <dd>
                        {tel ? (
                          <a href={tel} part="link">
                            {profile.phone}
                          </a>
                        ) : (
                          profile.phone
                        )}
                      </dd>
                    </>
                  )}
                  <dt>{t('field.countryCode')}</dt>
                  <dd>
                    <Flag code={profile.countryCode} name={country} base={flagBase(siteBase)} />
                  </dd>
                </dl>
              ) : (
                <p className="muted">{t('service_profile.no_contacts')}</p>
              ),
          },
        ]}
      />
      <div className="report-box">
        {reporting ? (
          <ReportForm serviceId={profile.id} onCancel={closeReport} autoFocus />
        ) : (
          <button
            ref={reportButton}
            type="button"
            className="button button--danger"
            part="button report-button"
            aria-expanded={false}
            onClick={() => setReporting(true)}
          >
            {t('report_form.open')}
          </button>
        )}
      </div>
    </>
  );
}

/** Re-exported for the element's attribute parser. */
export const isProfileTab = (v: unknown): v is ProfileTab =>
  typeof v === 'string' && (PROFILE_TABS as readonly string[]).includes(v);
