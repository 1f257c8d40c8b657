import type { ServiceProfile } from '@poruch/core';

/** The website as a schema.org URL: only http(s), whatever an old row holds. */
const sameAs = (website: string): { sameAs?: string } => {
  try {
    const url = new URL(website.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? { sameAs: url.href } : {};
  } catch {
    return {};
  }
};

/** Schema.org data of the profile: a LocalBusiness and a JobPosting per open vacancy. */
export function jsonLd(s: ServiceProfile, url: string): object[] {
  const business = {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
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
  return [business, ...jobs];
}
