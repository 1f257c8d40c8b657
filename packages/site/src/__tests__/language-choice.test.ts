import {
  getStoredLocale,
  localeFromCookie,
  negotiateLocale,
  startLocale,
  storeLocale,
  withoutLocaleQuery,
} from '@poruch/core';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The language a page starts in (core's i18n/storage.ts, in a browser): the same as the server
 * served its first screen in, and the stored choice kept in step with the `locale` cookie the
 * server reads.
 */
const cookieLocale = () => localeFromCookie(document.cookie);

afterEach(() => {
  localStorage.clear();
  document.cookie = 'locale=; Path=/; Max-Age=0';
});

describe('the start language', () => {
  it('a choice is stored in localStorage and in the cookie, for a year on the whole site', () => {
    expect(storeLocale('en_GB')).toBe(true);
    expect(localStorage.getItem('locale')).toBe('en_GB');
    expect(cookieLocale()).toBe('en_GB');
    expect(getStoredLocale()).toBe('en_GB');
    storeLocale('ua');
    expect(cookieLocale()).toBe('ua');
  });

  it('the cookie alone is a stored choice (storage cleared or blocked)', () => {
    document.cookie = 'locale=en_GB; Path=/';
    expect(getStoredLocale()).toBe('en_GB');
  });

  it.each([
    // ?lang= first, then the stored choice, then the server's pick, then the browser's languages.
    ['?lang=en_GB', 'ua', 'ua', ['uk'], 'en_GB'],
    ['?q=x&lang=ua', 'en_GB', 'en_GB', ['en'], 'ua'],
    ['?lang=xx', 'en_GB', undefined, ['uk'], 'en_GB'],
    ['', 'en_GB', 'ua', ['uk'], 'en_GB'],
    ['', null, 'en_GB', ['uk'], 'en_GB'],
    ['', null, 'ua', ['en-GB'], 'ua'],
    ['', null, undefined, ['de-DE', 'en-US'], 'en_GB'],
    ['', null, undefined, ['de-DE'], 'ua'],
    ['', null, 'ru_UA', [], 'ua'],
  ] as const)(
    'search %j, stored %j, server %j, browser %j: %s',
    (search, stored, server, langs, want) => {
      if (stored) localStorage.setItem('locale', stored);
      expect(startLocale(search, server, langs)).toBe(want);
    },
  );

  it('a ?lang= or a stored choice is written to the cookie, so the next page is served in it', () => {
    localStorage.setItem('locale', 'en_GB');
    expect(cookieLocale()).toBeUndefined();
    startLocale('', 'ua', ['uk']);
    expect(cookieLocale()).toBe('en_GB');
    startLocale('?lang=ua', 'en_GB', ['en']);
    expect(cookieLocale()).toBe('ua');
    expect(localStorage.getItem('locale')).toBe('ua');
  });

  it('a first visit stores nothing: the browser’s language is not a choice', () => {
    expect(startLocale('', 'en_GB', ['en'])).toBe('en_GB');
    expect(localStorage.getItem('locale')).toBeNull();
    expect(cookieLocale()).toBeUndefined();
  });
});

describe('language helpers', () => {
  it.each([
    ['en-GB,en;q=0.9', 'en_GB'],
    ['uk;q=0.2, en;q=0.3', 'en_GB'],
    ['en;q=0.5, uk;q=0.5', 'en_GB'],
    ['uk, en', 'ua'],
    ['ru-RU, ru;q=0.9', 'ua'],
    ['en;q=0', 'ua'],
    ['', 'ua'],
  ])('Accept-Language %j: %s', (header, want) => {
    expect(negotiateLocale(header)).toBe(want);
  });

  it('reads the locale cookie among others, only when it holds a locale', () => {
    expect(localeFromCookie('a=b; locale=en_GB')).toBe('en_GB');
    expect(localeFromCookie('xlocale=en_GB')).toBeUndefined();
    expect(localeFromCookie('locale=ru_UA')).toBeUndefined();
    expect(localeFromCookie(undefined)).toBeUndefined();
  });

  it('drops `lang` from an address and keeps the rest', () => {
    expect(withoutLocaleQuery('/login?back=%2Fx&lang=en_GB#top')).toBe('/login?back=%2Fx#top');
    expect(withoutLocaleQuery('/about?lang=ua')).toBe('/about');
    expect(withoutLocaleQuery('/dashboard/services?tab=a')).toBe('/dashboard/services?tab=a');
  });
});
