import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('@poruch/core in Node', () => {
  it('imports without DOM globals and creates nothing that needs them', async () => {
    expect(typeof document).toBe('undefined');
    expect(typeof window).toBe('undefined');
    expect(typeof localStorage).toBe('undefined');
    const core = await import('../index.js');
    expect(core.getStoredLocale()).toBe('ua');
    expect(core.readCookie('XSRF-TOKEN')).toBeUndefined();
  });

  it('depends on no React', () => {
    const pkg = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const deps = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies });
    expect(deps.filter((d) => /react|preact/.test(d))).toEqual([]);
  });

  it('exports the product constants', async () => {
    const core = await import('../index.js');
    expect({
      API_PREFIX: core.API_PREFIX,
      ADMIN_SEARCH_MIN: core.ADMIN_SEARCH_MIN,
      COOKIE_BANNER_HEIGHT: core.COOKIE_BANNER_HEIGHT,
      MOBILE_BREAKPOINT: core.MOBILE_BREAKPOINT,
      MENU_COLLAPSE: core.MENU_COLLAPSE,
      UPDATE_WORKER_DELAY: core.UPDATE_WORKER_DELAY,
      TRACE_SAMPLE_RATE: core.TRACE_SAMPLE_RATE,
      STORAGE_KEYS: core.STORAGE_KEYS,
    }).toEqual({
      API_PREFIX: 'api/v1',
      ADMIN_SEARCH_MIN: 3,
      COOKIE_BANNER_HEIGHT: 100,
      MOBILE_BREAKPOINT: 960,
      MENU_COLLAPSE: 1170,
      UPDATE_WORKER_DELAY: 30_000,
      TRACE_SAMPLE_RATE: 0.3,
      STORAGE_KEYS: {
        locale: 'locale',
        cookiesEssentials: 'cookies_banner_essentials',
        cookiesMarketing: 'cookies_banner_marketing',
      },
    });
  });
});
