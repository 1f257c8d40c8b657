import { waitFor } from '@testing-library/dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { widgetRoot } from '../../__tests__/helpers/shadow.js';
import { widgetSuite } from '../../__tests__/helpers/mounts.js';
import { PoruchSearch } from '../PoruchSearch.js';
import '../element.js';

const { api, mounts } = widgetSuite(PoruchSearch, 'poruch-search', ['page-size']);

/**
 * More text matches than the server counts (it stops at 1000 and answers `totalIsEstimate`),
 * and a few in another country, which it counts exactly.
 */
const MANY = 1050;

beforeAll(async () => {
  await api.database.db.execute(`
    INSERT INTO services (name, country_code, status, description_ua)
    SELECT 'Майстерня ' || i, 'PL', 'approved', 'Ремонт взуття поруч.'
      FROM generate_series(1, ${MANY}) AS i`);
  await api.database.db.execute(`
    INSERT INTO services (name, country_code, status, description_ua)
    SELECT 'Майстерня ' || i, 'DE', 'approved', 'Ремонт взуття поруч.'
      FROM generate_series(1, 3) AS i`);
}, 60_000);

// The machine runs other suites beside this one: the answers may take seconds.
const countText = (root: HTMLElement) => root.querySelector('.count')?.textContent;

describe.each(mounts)('<poruch-search> as a %s with more matches than counted', (_n, mount) => {
  it('shows the total as a lower bound, "1000+", in the chosen language', async () => {
    const en = await widgetRoot(
      await mount({ apiBase: api.url, lang: 'en_GB', q: 'майстерня', 'page-size': '5' }),
    );
    await waitFor(() => expect(countText(en)).toBe('Results: 1,000+'), { timeout: 10_000 });
    expect(en.querySelectorAll('.result')).toHaveLength(5);

    const ua = await widgetRoot(
      await mount({ apiBase: api.url, lang: 'ua', q: 'майстерня', 'page-size': '5' }),
    );
    await waitFor(() => expect(countText(ua)).toBe('Результатів: 1\u00a0000+'), {
      timeout: 10_000,
    });
  }, 30_000);

  it('shows an exact total without "+"', async () => {
    const root = await widgetRoot(
      await mount({ apiBase: api.url, lang: 'en_GB', q: 'майстерня', country: 'DE' }),
    );
    await waitFor(() => expect(countText(root)).toBe('Results: 3'), { timeout: 10_000 });
  }, 30_000);
});
