import { HREFLANG, localeUrl } from './i18n/alternates.js';
import { LOCALE_CODES, type LocaleCode } from './i18n/locales.js';
import type { ServiceProfile } from './schemas/index.js';

/** The website as a schema.org URL: only http(s), whatever an old row holds. */
const sameAs = (website: string): { sameAs?: string } => {
  try {
    const url = new URL(website.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? { sameAs: url.href } : {};
  } catch {
    return {};
  }
};

/**
 * Schema.org data of a service's profile page, the same on the site and in the page the server
 * draws: the page (a WebPage in `locale`, `inLanguage`, with its other language versions as
 * `workTranslation`), the LocalBusiness it is about, and a JobPosting per open vacancy.
 *
 * @param url the profile's absolute URL without `lang` (`https://…/services/<id>`).
 */
export function profileJsonLd(s: ServiceProfile, url: string, locale: LocaleCode): object[] {
  const businessId = `${url}#business`;
  const page = {
    '@context': 'https://schema.org',
    '@type': 'WebPage',
    '@id': localeUrl(url, locale),
    url: localeUrl(url, locale),
    name: s.name,
    inLanguage: HREFLANG[locale],
    about: { '@id': businessId },
    workTranslation: LOCALE_CODES.filter((c) => c !== locale).map((c) => ({
      '@type': 'WebPage',
      '@id': localeUrl(url, c),
      url: localeUrl(url, c),
      inLanguage: HREFLANG[c],
    })),
  };
  const business = {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    '@id': businessId,
    name: s.name,
    url,
    ...(s.descriptionUa || s.descriptionOther
      ? { description: s.descriptionUa || s.descriptionOther }
      : {}),
    // A telephone as digits and separators only (an old row may hold anything).
    ...(/^[+(]?[0-9][0-9 ().-]*$/.test(s.phone.trim()) ? { telephone: s.phone.trim() } : {}),
    ...sameAs(s.website),
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
        ...sameAs(s.website),
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
  return [page, business, ...jobs];
}

/** JSON-LD as the text of a `<script type="application/ld+json">`: `<` escaped, so no text closes it. */
export const jsonLdScriptText = (data: unknown): string =>
  JSON.stringify(data).replace(/</g, '\\u003c');
