import { afterEach, describe, expect, it, vi } from 'vitest';
import { acceptAllCookies, readCookieConsent, rejectCookies, saveCookieConsent } from '../index.js';

const memory = () => {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    data,
  };
};

afterEach(() => vi.unstubAllGlobals());

describe('cookie consent', () => {
  it('nothing stored: banner shows, analytics defaults to on', () => {
    expect(readCookieConsent(memory())).toEqual({ decided: false, analytics: true });
    expect(readCookieConsent()).toEqual({ decided: false, analytics: true });
  });

  it('accept stores both flags as the text true', () => {
    const s = memory();
    expect(acceptAllCookies(s)).toEqual({ decided: true, analytics: true });
    expect(Object.fromEntries(s.data)).toEqual({
      cookies_banner_essentials: 'true',
      cookies_banner_marketing: 'true',
    });
    expect(readCookieConsent(s)).toEqual({ decided: true, analytics: true });
  });

  it('reject stores essentials true and marketing false', () => {
    const s = memory();
    expect(rejectCookies(s)).toEqual({ decided: true, analytics: false });
    expect(Object.fromEntries(s.data)).toEqual({
      cookies_banner_essentials: 'true',
      cookies_banner_marketing: 'false',
    });
    expect(readCookieConsent(s)).toEqual({ decided: true, analytics: false });
  });

  it('save stores the analytics choice; localStorage is the default storage', () => {
    const s = memory();
    vi.stubGlobal('localStorage', s);
    expect(saveCookieConsent(false)).toEqual({ decided: true, analytics: false });
    expect(s.data.get('cookies_banner_marketing')).toBe('false');
    saveCookieConsent(true);
    expect(readCookieConsent()).toEqual({ decided: true, analytics: true });
  });

  it('a throwing storage does not break the page', () => {
    const broken = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    };
    expect(readCookieConsent(broken)).toEqual({ decided: false, analytics: true });
    expect(acceptAllCookies(broken)).toEqual({ decided: true, analytics: true });
  });
});
