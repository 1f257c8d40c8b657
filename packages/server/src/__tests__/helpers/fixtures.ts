import type { Registration } from '@poruch/core';

let counter = 0;
/** A valid registration body, with a unique e-mail unless one is given. */
export function registration(
  overrides: { email?: string; locale?: 'ua' | 'en_GB' } = {},
): Registration {
  counter++;
  return {
    account: {
      email: overrides.email ?? `partner${counter}-${Date.now()}@example.org`,
      password: 'correct horse battery',
      confirmPassword: 'correct horse battery',
      firstName: 'Оксана',
      lastName: 'Шевченко',
      phone: '+48 600 100 200',
      locale: overrides.locale ?? 'ua',
      marketingConsent: false,
    },
    service: {
      name: 'Перукарня «Калина»',
      countryCode: 'PL',
      category: 'beauty_and_health',
      address: 'ul. Marszałkowska 10, Warszawa',
      addressDetails: {
        lat: 52.2297,
        lng: 21.0122,
        displayName: 'Warszawa',
        city: 'Warszawa',
        countryCode: 'PL',
        approximate: true,
        source: 'gazetteer',
      },
      website: 'https://kalyna.example.org',
      phone: '+48 600 100 200',
      descriptionUa: 'Стрижки та фарбування.',
      descriptionOther: 'Haircuts and colouring.',
      isOnline: false,
      showOnMap: true,
      originalPlace: 'Київ',
      marketingConsent: false,
      addressConfirmed: true,
    },
    termsAgreed: true,
  };
}
