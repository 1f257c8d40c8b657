import { fireEvent, waitFor, within } from '@testing-library/dom';
import { render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withOutage, type SeededService } from '../../__tests__/helpers/apiServer.js';
import { widgetSuite } from '../../__tests__/helpers/mounts.js';
import { stateOf, widgetRoot } from '../../__tests__/helpers/shadow.js';
import { BROWSER_ID_KEY } from '../browserId.js';
import { PoruchService } from '../PoruchService.js';
import { safeWebHref, telHref } from '../safeLinks.js';
import '../element.js';

const { api, mounts } = widgetSuite(PoruchService, 'poruch-service');
let service: SeededService;

beforeAll(async () => {
  service = await api.addService({
    name: 'Стоматологія «Усмішка»',
    countryCode: 'CZ',
    category: 'medicine',
    descriptionUa: 'Лікування зубів українською.',
    descriptionOther: 'Dental care in Ukrainian.',
    website: 'https://smile.example.org',
    phone: '+420 777 123 456',
  });
  await api.addVacancy(service, { name: 'Асистент стоматолога', experience: 'one_two' });
}, 60_000);

afterEach(() => localStorage.clear());

describe('links', () => {
  it('allow only http, https and tel', () => {
    expect(safeWebHref('https://a.example/x')).toBe('https://a.example/x');
    expect(safeWebHref('javascript:alert(1)')).toBeNull();
    expect(safeWebHref('data:text/html,x')).toBeNull();
    expect(telHref('+420 777 123 456')).toBe('tel:+420777123456');
    expect(telHref('call me')).toBeNull();
  });
});

describe('the back link', () => {
  /** The React component with `backHref`; what the link shows and hands to `onNavigate`. */
  async function follow(backHref: string) {
    const followed: string[] = [];
    const { container } = render(
      <PoruchService
        apiBase={api.url}
        lang="en_GB"
        serviceId={service.id}
        backHref={backHref}
        onNavigate={(href) => followed.push(href)}
      />,
    );
    const ui = within(await widgetRoot(container));
    await waitFor(() => ui.getByRole('heading', { level: 2 }));
    const link = ui.queryByRole('link', { name: /Back to list/ });
    if (link) fireEvent.click(link);
    return { href: link?.getAttribute('href') ?? null, followed };
  }

  it.each([
    // A path on the page's origin is its resolved path, one leading slash.
    ['/', '/'],
    ['/services/x/../list?x=1#y', '/services/list?x=1#y'],
    ['/..//evil.example', '/evil.example'],
    ['<origin>/list', '/list'],
    // What the browser reads as another host is that host's full URL, never a path.
    ['/\t/evil.example', 'http://evil.example/'],
    ['/\\evil.example', 'http://evil.example/'],
    ['//evil.example/x', 'http://evil.example/x'],
    ['https://list.example/a', 'https://list.example/a'],
  ])('%j links to and navigates to %j', async (backHref, expected) => {
    // The page's origin is the API's (useOrigin), known once the suite has started it.
    const given = backHref.replace('<origin>', location.origin);
    expect(await follow(given)).toEqual({ href: expected, followed: [expected] });
  });

  it.each([
    ['javascript:alert(1)'],
    ['java\tscript:alert(1)'],
    ['data:text/html,x'],
    ['http://[::1'],
  ])('%j is a button that only fires poruch:back', async (backHref) => {
    expect(await follow(backHref)).toEqual({ href: null, followed: [] });
  });
});

describe.each(mounts)('<poruch-service> as a %s', (_n, mount) => {
  it('shows the profile with tabs that work with the arrow keys', async () => {
    const host = await mount({ apiBase: api.url, lang: 'en_GB', serviceId: service.id });
    const root = await widgetRoot(host);
    const ui = within(root);
    await waitFor(() =>
      expect(ui.getByRole('heading', { level: 2 }).textContent).toBe(service.name),
    );
    // The state attribute follows the render in an effect: waited for, not read at once.
    await waitFor(() => expect(stateOf(host)).toBe('ready'));
    expect(root.textContent).toContain('Czechia');
    expect(root.querySelector('img.flag__img')?.getAttribute('src')).toBe(
      `${api.url}/flags/4x3/cz.svg`,
    );
    // en_GB shows the other-language description first.
    expect(ui.getByRole('tabpanel').textContent).toMatch(/^Dental care in Ukrainian\./);
    const tabs = ui.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Services', 'Vacancies (1)', 'Contacts']);
    tabs[0]!.focus();
    fireEvent.keyDown(tabs[0]!, { key: 'ArrowRight' });
    await waitFor(() =>
      expect(ui.getByRole('tabpanel').textContent).toContain('Асистент стоматолога'),
    );
    fireEvent.keyDown(ui.getAllByRole('tab')[1]!, { key: 'End' });
    await waitFor(() =>
      expect(ui.getAllByRole('tab')[2]!.getAttribute('aria-selected')).toBe('true'),
    );
    const panel = ui.getByRole('tabpanel');
    expect(
      within(panel).getByRole('link', { name: 'https://smile.example.org' }).getAttribute('href'),
    ).toBe('https://smile.example.org/');
    expect(within(panel).getByRole('link', { name: '+420 777 123 456' }).getAttribute('href')).toBe(
      'tel:+420777123456',
    );
  });

  it('marks "I have used this service" once per browser, with the count', async () => {
    const host = await mount({ apiBase: api.url, lang: 'en_GB', serviceId: service.id });
    const root = await widgetRoot(host);
    const ui = within(root);
    const button = await waitFor(() =>
      ui.getByRole('button', { name: 'I have used this service' }),
    );
    const before = Number(/Used by: (\d+)/.exec(root.textContent ?? '')![1]);
    fireEvent.click(button);
    // The React run marks it first; the element run is the same browser, counted once. The
    // profile is `max-age=0` with an ETag: a browser revalidates it, but happy-dom's response
    // cache serves an expired entry that has an ETag and no Last-Modified as fresh
    // (ResponseCache.get), so the element run's `before` can be the count before the first
    // mark. The answer to the mark is the server's.
    await waitFor(() =>
      expect(root.textContent).toMatch(
        new RegExp(
          `Used by: ${before + 1}Thank you for your feedback|Used by: (${before}|${before + 1})You have already marked this service`,
        ),
      ),
    );
    expect(localStorage.getItem(BROWSER_ID_KEY)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  it('fires poruch:back and opens the report form from the profile', async () => {
    const host = await mount({ apiBase: api.url, lang: 'en_GB', serviceId: service.id });
    const root = await widgetRoot(host);
    const ui = within(root);
    const events: CustomEvent[] = [];
    const listener = (e: Event) => {
      e.preventDefault();
      events.push(e as CustomEvent);
    };
    document.addEventListener('poruch:back', listener);
    try {
      fireEvent.click(await waitFor(() => ui.getByRole('button', { name: /Back to list/ })));
      expect(events[0]?.detail).toEqual({ serviceId: service.id });
    } finally {
      document.removeEventListener('poruch:back', listener);
    }
    fireEvent.click(await waitFor(() => ui.getByRole('button', { name: 'Report' })));
    await waitFor(() => expect(ui.getByRole('heading', { name: 'Report a service' })).toBeTruthy());
    fireEvent.click(ui.getByLabelText('Other'));
    fireEvent.click(ui.getByRole('button', { name: 'Send the report' }));
    await waitFor(() => expect(root.textContent).toContain('Thank you: your report has been sent'));
  });

  it('shows a translated error when the API is down', async () => {
    await withOutage(api, async (outage) => {
      const host = await mount({ apiBase: outage.url, lang: 'ua', serviceId: service.id });
      const root = await widgetRoot(host);
      await waitFor(() =>
        expect(within(root).getByRole('alert').textContent).toContain('Сервіс недоступний'),
      );
      expect(stateOf(host)).toBe('error');
    });
  });
});
