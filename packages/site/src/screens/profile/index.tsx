/**
 * The service profile page (`/services/:id/:tab?`): `<poruch-service>` of @poruch/widgets as a
 * React component (docs/architecture.md, Widgets). The widget loads the profile and shows its
 * loading, error and tab states, "I have used this service" and the report form; the site gives it
 * the route (the id, the tab as a real URL per tab, its router for the links), the language, an h1,
 * and takes the loaded profile for the page's title, description and JSON-LD, and for the
 * service's location (ProfileLocation), which it shows at the end of the services tab.
 */
import { useCallback, useEffect, useState } from 'react';
import { profileJsonLd, type ServiceProfile } from '@poruch/core';
import { PoruchService } from '@poruch/widgets';
import { useApp } from '../../app/context.js';
import { applySeo } from '../../app/seo.js';
import { useLocation, useNavigate, useParams } from '../../router/index.js';
import { ProfileLocation } from './ProfileLocation.js';
import './profile.css';

const TABS = ['services', 'vacancies', 'contacts'] as const;
/** The id of the JSON-LD script applySeo writes. */
const JSON_LD_ID = 'poruch-jsonld';
type Tab = (typeof TABS)[number];

const tabPath = (id: string, tab: Tab) =>
  `/services/${encodeURIComponent(id)}${tab === 'services' ? '' : `/${tab}`}`;

export default function ProfileScreen() {
  const { t, locale, showToast } = useApp();
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id ?? '';
  const tab: Tab = (TABS as readonly string[]).includes(params.tab ?? '')
    ? (params.tab as Tab)
    : 'services';
  const [profile, setProfile] = useState<ServiceProfile | null>(null);
  const s = profile?.id === id ? profile : null;

  const { path } = useLocation();
  const seo = s
    ? {
        title: s.name,
        description: (s.descriptionUa || s.descriptionOther || t('app.tagline')).slice(0, 160),
        path: `/services/${s.id}`,
        jsonLd: profileJsonLd(s, `${window.location.origin}/services/${s.id}`, locale),
      }
    : null;
  const seoKey = JSON.stringify(seo);
  useEffect(() => {
    if (!seo) return;
    // After the app's route title, which a parent's effect writes after this one on every path
    // change (a tab link too).
    let live = true;
    queueMicrotask(() => {
      if (live) applySeo(seo);
    });
    return () => {
      live = false;
      document.getElementById(JSON_LD_ID)?.remove();
    };
  }, [seoKey, path]); // eslint-disable-line react-hooks/exhaustive-deps

  const onNavigate = useCallback(
    // A tab is the same page: replace the entry and keep the scroll; the back link is a visit.
    (href: string) =>
      href === '/' ? navigate(href) : navigate(href, { replace: true, keepScroll: true }),
    [navigate],
  );
  const onReportSent = useCallback(
    () =>
      showToast({
        severity: 'success',
        summary: t('success.summary'),
        detail: t('success.report_sent'),
      }),
    [showToast, t],
  );
  const tabHref = useCallback((name: Tab) => tabPath(id, name), [id]);
  const servicesEnd = useCallback(
    (loaded: ServiceProfile) => (tab === 'services' ? <ProfileLocation profile={loaded} /> : null),
    [tab],
  );

  return (
    <article className="page profile" data-screen="profile">
      <PoruchService
        serviceId={id}
        // The page's Link header preloads GET /api/v1/services/:id with same-origin
        // credentials (server plugins/site.ts); the widget's call must match it to use it.
        readCredentials="same-origin"
        lang={locale}
        tab={tab}
        tabHref={tabHref}
        headingLevel={1}
        backHref="/"
        onNavigate={onNavigate}
        onLoad={setProfile}
        onReportSent={onReportSent}
        // Where the service is, inside the services tab, above the report button.
        servicesEnd={servicesEnd}
      />
    </article>
  );
}
