import {
  lazy,
  Suspense,
  useEffect,
  useRef,
  useState,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import type { ServiceProfile as Profile } from '@poruch/core';
import {
  categoryLabelKey,
  confirmationLabel,
  countryNameKey,
  isApiError,
  sameOriginPath,
} from '@poruch/core/lite';
import { ErrorState } from '../shared/ErrorState.js';
import { useWidgetResource } from '../shared/useWidgetResource.js';
import { useWidget } from '../shared/WidgetContext.js';
import { useConnector } from '../useConnector.js';
import { Flag } from '../ui/Flag.js';
import { flagBase } from '../ui/flagBase.js';
import { StatusMessage } from '../ui/StatusMessage.js';
import { Tabs } from '../ui/Tabs.js';
import { VacancyList } from '../vacancies/VacancyList.js';
import { createUsedMark } from './createUsedMark.js';
import { safeWebHref, telHref } from './safeLinks.js';

/** The report form is fetched when it is opened: a profile's first paint does not wait for it. */
const ReportForm = lazy(() =>
  import('../report/ReportForm.js').then((m) => ({ default: m.ReportForm })),
);

/** The tabs of the profile, in order. */
export const PROFILE_TABS = ['services', 'vacancies', 'contacts'] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];

export interface ServiceProfileProps {
  serviceId: string;
  /** Where the back-to-list link goes. Without it the link is a button that only fires `poruch:back`. */
  backHref?: string | undefined;
  /** The tab shown (first). Defaults to `services`. A change of it selects that tab. */
  tab?: ProfileTab | undefined;
  /**
   * Each tab's URL. With it the tabs are links (`aria-current="page"` on the shown one) that
   * fire `poruch:tab-change`; a listener's `preventDefault()` stops the link (a single-page app
   * routes itself). Without it they are ARIA tabs switched in place. Defaults to none.
   */
  tabHref?: ((tab: ProfileTab) => string) | undefined;
  /** The level of the service name's heading: 1 on a page of its own. Defaults to 2. */
  headingLevel?: 1 | 2 | undefined;
  /**
   * A single-page app's router: a click on the back link or a tab link calls it with the href
   * (as given) instead of loading the page. Defaults to none (the browser follows the link).
   */
  onNavigate?: ((href: string) => void) | undefined;
  /** The host page's content at the end of the services tab (PoruchService's servicesEnd). */
  servicesEnd?: ((profile: Profile) => ReactNode) | undefined;
}

/** The service profile inside a widget shell (`GET services/:id`). */
export function ServiceProfile({
  serviceId,
  backHref,
  tab,
  tabHref,
  headingLevel,
  onNavigate,
  servicesEnd,
}: ServiceProfileProps) {
  const { t, emit } = useWidget();
  const { data, error, status, reload } = useWidgetResource<Profile>(
    ({ api }, signal) => api.get(`services/${encodeURIComponent(serviceId)}`, { signal }),
    [serviceId],
  );
  useEffect(() => {
    if (data) emit('load', data);
  }, [data, emit]);
  return (
    <div
      className={`profile${status === 'loading' && !data ? ' profile--loading' : ''}`}
      part="profile"
    >
      <BackLink serviceId={serviceId} href={backHref} onNavigate={onNavigate} />
      {isApiError(error) && error.status === 404 ? (
        <ErrorState error={error} message={t('service_profile.not_found')} />
      ) : error ? (
        <ErrorState error={error} onRetry={reload} />
      ) : status === 'loading' && !data ? (
        <StatusMessage kind="loading" text={t('widget.loading')} />
      ) : data ? (
        <ProfileBody
          profile={data}
          tab={tab ?? 'services'}
          tabHref={tabHref}
          headingLevel={headingLevel ?? 2}
          onNavigate={onNavigate}
          servicesEnd={servicesEnd}
        />
      ) : null}
    </div>
  );
}

function BackLink({
  serviceId,
  href,
  onNavigate,
}: {
  serviceId: string;
  href: string | undefined;
  onNavigate: ((href: string) => void) | undefined;
}) {
  const { t, emit } = useWidget();
  // A link on the page's own origin is its resolved path (`/`, as a single-page app's own links
  // are); another site's only as a full http(s) URL; anything else is no link.
  const safe = sameOriginPath(href, location.href) ?? safeWebHref(href, location.href);
  const onClick = (e: MouseEvent) => {
    // A listener that calls preventDefault() handles the navigation itself (a single-page app).
    if (!emit('back', { serviceId }) || !safe) e.preventDefault();
    else if (onNavigate && !isModified(e)) {
      e.preventDefault();
      onNavigate(safe);
    }
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

function ProfileBody({
  profile,
  tab: wanted,
  tabHref,
  headingLevel,
  onNavigate,
  servicesEnd,
}: {
  profile: Profile;
  tab: ProfileTab;
  tabHref: ((tab: ProfileTab) => string) | undefined;
  headingLevel: 1 | 2;
  onNavigate: ((href: string) => void) | undefined;
  servicesEnd: ((profile: Profile) => ReactNode) | undefined;
}) {
  const { t, lang, api, siteBase, emit, host } = useWidget();
  const [tab, setTab] = useState<string>(wanted);
  // The host chose another tab (a route change): show it.
  const [lastWanted, setLastWanted] = useState(wanted);
  if (wanted !== lastWanted) {
    setLastWanted(wanted);
    setTab(wanted);
  }
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
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

  const tabs: { id: ProfileTab; label: string; panel: ReactNode }[] = [
    {
      id: 'services',
      label: t('service_profile.tab_services'),
      panel: (
        <>
          {primary || secondary ? (
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
          )}
          {/* The host page's own content, if it gives any (PoruchService's servicesEnd). */}
          <slot name={SERVICES_END_SLOT} />
        </>
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
                    <a href={web} target="_blank" rel="noopener noreferrer nofollow" part="link">
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
  ];

  const confirmed = confirmationLabel(t, lang, profile);
  return (
    <>
      <header className="profile__head">
        <Heading part="title">{profile.name}</Heading>
        <p className="profile__meta">
          <Flag code={profile.countryCode} name={country} base={flagBase(siteBase)} />
          {profile.category && <span>{t(categoryLabelKey(profile.category))}</span>}
          {profile.isOnline && <span className="badge">{t('service_profile.online')}</span>}
          {profile.isPartner && (
            <span className="badge badge--open">{t('service_profile.partner')}</span>
          )}
        </p>
        {confirmed && (
          <p className="muted" part="confirmed" data-confirmation={profile.confirmation}>
            {profile.confirmation === 'overdue' ? (
              <span className="badge">{confirmed}</span>
            ) : (
              confirmed
            )}
          </p>
        )}
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
      {tabHref ? (
        <LinkTabs
          label={t('service_profile.tabs_label')}
          selected={tab}
          tabs={tabs}
          href={tabHref}
          onFollow={(id) => {
            // A listener that calls preventDefault() routes itself; the tab shows at once.
            const go = emit('tab-change', { serviceId: profile.id, tab: id });
            setTab(id);
            if (go && onNavigate) {
              onNavigate(tabHref(id));
              return false;
            }
            return go;
          }}
        />
      ) : (
        <Tabs
          label={t('service_profile.tabs_label')}
          selected={tab}
          onSelect={setTab}
          tabs={tabs}
        />
      )}
      {/* The host page's own content, kept in its DOM (a child of the shadow host) and shown by
          the slot in the services tab; drawn in this render, with the profile. */}
      {servicesEnd &&
        host() &&
        createPortal(<div slot={SERVICES_END_SLOT}>{servicesEnd(profile)}</div>, host()!)}
      <div className="report-box">
        {reporting ? (
          <Suspense fallback={<StatusMessage kind="loading" text={t('widget.loading')} />}>
            <ReportForm serviceId={profile.id} onCancel={closeReport} autoFocus />
          </Suspense>
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

/**
 * The tabs as links (the host gives each tab a URL): a navigation list with the shown tab
 * marked `aria-current="page"`, and its panel under it.
 */
function LinkTabs(props: {
  label: string;
  selected: string;
  tabs: readonly { id: ProfileTab; label: string; panel: ReactNode }[];
  href: (tab: ProfileTab) => string;
  /** Returns false when the host handles the navigation. */
  onFollow: (tab: ProfileTab) => boolean;
}) {
  const { label, selected, tabs, href, onFollow } = props;
  const shown = tabs.find((x) => x.id === selected) ?? tabs[0]!;
  return (
    <div className="tabs">
      <nav aria-label={label}>
        <ul className="tabs__list tabs__list--links" part="tablist">
          {tabs.map((x) => (
            <li key={x.id}>
              <a
                href={href(x.id)}
                className="tabs__tab"
                aria-current={x.id === shown.id ? 'page' : undefined}
                part={x.id === shown.id ? 'tab tab-selected' : 'tab'}
                onClick={(e) => {
                  if (isModified(e)) return;
                  if (!onFollow(x.id)) e.preventDefault();
                }}
              >
                {x.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <section className="tabs__panel" part="tabpanel" aria-label={shown.label}>
        {shown.panel}
      </section>
    </div>
  );
}

/** A click that opens a new tab or window: left to the browser. */
const isModified = (e: MouseEvent) =>
  e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0;

/** The slot at the end of the services tab, where a React host's `servicesEnd` shows. */
export const SERVICES_END_SLOT = 'services-end';

/** Re-exported for the element's attribute parser. */
export const isProfileTab = (v: unknown): v is ProfileTab =>
  typeof v === 'string' && (PROFILE_TABS as readonly string[]).includes(v);
