import {
  categoryLabelKey,
  confirmationLabel,
  countryNameKey,
  createI18n,
  flagUrl,
  type I18n,
  type LocaleCode,
  type ServiceProfile,
} from '@poruch/core';

/** HTML-escapes text for an element's content or a quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const i18ns = new Map<LocaleCode, I18n>();

/**
 * The first screen of a service's profile page as static HTML (for speed: the description is the
 * page's largest paint, and now paints with the page instead of after the scripts): the markup
 * `<poruch-service>` renders in its shadow root (packages/widgets/src/service/ServiceProfile.tsx,
 * services tab, in the page's language `locale`), inside a declarative shadow root with the
 * widget's own stylesheet (`css`, the site build's pages/profile-shadow.css), so it is laid out
 * exactly as the widget that replaces it. Every value from the database is escaped.
 */
export function renderProfileFirstScreen(
  profile: ServiceProfile,
  css: string,
  locale: LocaleCode = 'ua',
): string {
  let i18n = i18ns.get(locale);
  if (!i18n) i18ns.set(locale, (i18n = createI18n(locale)));
  const t = (key: string, options?: Record<string, unknown>) => escapeHtml(i18n.t(key, options));
  const e = escapeHtml;
  const id = encodeURIComponent(profile.id);
  const country = t(countryNameKey(profile.countryCode));
  // As the widget: the description in the page's language first, the other one muted.
  const primary = locale === 'ua' ? profile.descriptionUa : profile.descriptionOther;
  const secondary = locale === 'ua' ? profile.descriptionOther : profile.descriptionUa;
  // "Confirmed <month year>" or the overdue badge, as the widget: without it here the line would
  // appear when the widget replaces this screen and move everything under it.
  const confirmed = confirmationLabel(t, locale, profile);
  const confirmation = confirmed
    ? `<p class="muted" part="confirmed" data-confirmation="${e(profile.confirmation)}">${
        profile.confirmation === 'overdue' ? `<span class="badge">${confirmed}</span>` : confirmed
      }</p>`
    : '';
  const tab = (href: string, label: string, current: boolean) =>
    `<li><a href="${href}" class="tabs__tab"${current ? ' aria-current="page"' : ''} part="${
      current ? 'tab tab-selected' : 'tab'
    }">${label}</a></li>`;
  const panel =
    primary || secondary
      ? `<div class="stack">${primary ? `<p class="profile__text">${e(primary)}</p>` : ''}${
          secondary
            ? `<p class="profile__text muted"${locale === 'ua' ? '' : ' lang="uk"'}>${e(secondary)}</p>`
            : ''
        }</div>`
      : `<p class="muted">${t('service_profile.no_description')}</p>`;
  return (
    // The site's profile screen (screens/profile: `<article class="page profile">` around the
    // widget's host), with its test hook renamed as scripts/prerender.mjs renames them.
    `<article class="page profile" data-prerendered-screen="profile"><div><template shadowrootmode="open"><style>${css.replace(/<\/style/gi, '<\\/style')}</style>` +
    `<div class="poruch-root" part="root" lang="${locale === 'ua' ? 'uk' : 'en-GB'}"><div class="profile" part="profile">` +
    `<a class="profile__back" part="back" href="/">← ${t('service_profile.back_to_list')}</a>` +
    `<header class="profile__head"><h1 part="title">${e(profile.name)}</h1><p class="profile__meta">` +
    `<span class="flag" part="flag"><img class="flag__img" alt="" width="20" height="15" loading="lazy" crossorigin="anonymous" src="${e(
      flagUrl(profile.countryCode, '/flags/4x3'),
    )}"><span class="flag__name">${country}</span></span>` +
    (profile.category ? `<span>${t(categoryLabelKey(profile.category))}</span>` : '') +
    (profile.isOnline ? `<span class="badge">${t('service_profile.online')}</span>` : '') +
    (profile.isPartner
      ? `<span class="badge badge--open">${t('service_profile.partner')}</span>`
      : '') +
    `</p>${confirmation}</header><div class="profile__used" part="used">` +
    `<button type="button" class="button button--secondary" part="button used-button" aria-pressed="false">${t(
      'home.used_service',
    )}</button><span class="muted">${t('home.used_count', { count: profile.usedCount })}</span></div>` +
    `<div class="tabs"><nav aria-label="${t('service_profile.tabs_label')}"><ul class="tabs__list tabs__list--links" part="tablist">` +
    tab(`/services/${id}`, t('service_profile.tab_services'), true) +
    tab(
      `/services/${id}/vacancies`,
      `${t('service_profile.tab_vacancies')} (${profile.vacancies.length})`,
      false,
    ) +
    tab(`/services/${id}/contacts`, t('service_profile.tab_contacts'), false) +
    `</ul></nav><section class="tabs__panel" part="tabpanel" aria-label="${t(
      'service_profile.tab_services',
    )}">${panel}</section></div>` +
    `<div class="report-box"><button type="button" class="button button--danger" part="button report-button" aria-expanded="false">${t(
      'report_form.open',
    )}</button></div></div></div></template></div></article>`
  );
}
