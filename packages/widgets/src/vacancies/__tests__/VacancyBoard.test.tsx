import { render } from '@testing-library/react';
import { fireEvent, waitFor, within } from '@testing-library/dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { withOutage, type SeededService } from '../../__tests__/helpers/apiServer.js';
import { stateOf, widgetRoot } from '../../__tests__/helpers/shadow.js';
import { widgetSuite } from '../../__tests__/helpers/mounts.js';
import { VacancyBoard } from '../VacancyBoard.js';
import '../element.js';

const { api, mounts } = widgetSuite(VacancyBoard, 'poruch-vacancies', ['page-size']);
let bakery: SeededService;
let garage: SeededService;

beforeAll(async () => {
  bakery = await api.addService({ name: 'Пекарня «Колосок»', countryCode: 'DE', category: 'food' });
  garage = await api.addService({ name: 'СТО «Мотор»', countryCode: 'PL', category: 'auto' });
  await api.addVacancy(bakery, { name: 'Пекар', experience: 'one_two', salary: '2500 €' });
  await api.addVacancy(bakery, { name: 'Продавець', experience: 'any' });
  await api.addVacancy(bakery, { name: 'Кондитер', experience: 'six_plus', isOpen: false });
  await api.addVacancy(garage, { name: 'Автомеханік', experience: 'three_five' });
}, 60_000);

const names = (root: HTMLElement) =>
  Array.from(root.querySelectorAll('.vacancy__name')).map((n) => n.textContent);

describe.each(mounts)('<poruch-vacancies> as a %s', (_name, mount) => {
  it('lists open vacancies and filters them by text and experience', async () => {
    const host = await mount({ apiBase: api.url, lang: 'en_GB' });
    const root = await widgetRoot(host);
    await waitFor(() => expect(names(root).sort()).toEqual(['Автомеханік', 'Пекар', 'Продавець']));
    // The state attribute follows the render in an effect: waited for, not read at once.
    await waitFor(() => expect(stateOf(host)).toBe('ready'));
    const ui = within(root);
    fireEvent.change(ui.getByLabelText('Experience'), { target: { value: 'one_two' } });
    await waitFor(() => expect(names(root)).toEqual(['Пекар']));
    expect(root.textContent).toContain('Salary: 2500 €');
    expect(root.textContent).toContain('1–2 years');
  });

  it('shows closed vacancies when open-only is off', async () => {
    const host = await mount({ apiBase: api.url, lang: 'en_GB', serviceId: bakery.id });
    const root = await widgetRoot(host);
    await waitFor(() => expect(names(root).sort()).toEqual(['Пекар', 'Продавець']));
    fireEvent.click(within(root).getByLabelText('Open vacancies only'));
    await waitFor(() => expect(names(root)).toHaveLength(3));
    expect(root.textContent).toContain('Closed');
  });

  it('with service-id shows one partner only', async () => {
    const host = await mount({ apiBase: api.url, lang: 'ua', serviceId: garage.id });
    const root = await widgetRoot(host);
    await waitFor(() => expect(names(root)).toEqual(['Автомеханік']));
    expect(root.textContent).toContain('Досвід: 3–5 років');
  });

  it('shows an empty state in the chosen language', async () => {
    const host = await mount({ apiBase: api.url, lang: 'en_GB' });
    const root = await widgetRoot(host);
    await waitFor(() => expect(names(root).length).toBeGreaterThan(0));
    fireEvent.input(within(root).getByRole('searchbox'), { target: { value: 'космонавт' } });
    fireEvent.change(within(root).getByRole('searchbox'), { target: { value: 'космонавт' } });
    await waitFor(() => expect(root.textContent).toContain('There are no vacancies'));
  });

  it('shows a translated error with a retry when the API is down', async () => {
    await withOutage(api, async (outage) => {
      const host = await mount({ apiBase: outage.url, lang: 'en_GB' });
      const root = await widgetRoot(host);
      await waitFor(() =>
        expect(within(root).getByRole('alert').textContent).toContain(
          'The service is unavailable: try again later',
        ),
      );
      expect(stateOf(host)).toBe('error');
      expect(within(root).getByRole('button', { name: 'Try again' })).toBeTruthy();
    });
  });
});

describe('<VacancyBoard> driven by its host (React only)', () => {
  it('applies the host filters, and reports the visitor changes', async () => {
    const seen: unknown[] = [];
    const onFiltersChange = (f: unknown) => seen.push(f);
    const { container, rerender } = render(
      <VacancyBoard
        apiBase={api.url}
        lang="en_GB"
        filters={{ experience: 'one_two' }}
        onFiltersChange={onFiltersChange}
      />,
    );
    const root = await widgetRoot(container);
    // The first load already has the host's filter.
    await waitFor(() => expect(names(root)).toEqual(['Пекар']));
    rerender(
      <VacancyBoard
        apiBase={api.url}
        lang="en_GB"
        filters={{ experience: 'three_five' }}
        onFiltersChange={onFiltersChange}
      />,
    );
    await waitFor(() => expect(names(root)).toEqual(['Автомеханік']));
    expect(seen).toEqual([]);
    fireEvent.change(within(root).getByLabelText('Experience'), { target: { value: 'all' } });
    await waitFor(() => expect(names(root).length).toBe(3));
    expect(seen).toEqual([expect.objectContaining({ experience: 'all', openOnly: true })]);
  });
});

describe('<poruch-vacancies alerts>', () => {
  const storedAlerts = async () => {
    const { sql } = await import(
      /* @vite-ignore */ new URL(
        '../../../../server/node_modules/drizzle-orm/index.js',
        import.meta.url,
      ).pathname
    );
    const res = await api.database.db.execute(
      sql`select email, kind, filters, frequency, locale, confirmed_at from alert_subscriptions`,
    );
    return (res.rows ?? res) as Record<string, unknown>[];
  };

  it.each(mounts)(
    'as a %s subscribes to the search on screen, with its experience; not on one partner board',
    async (_name, mount) => {
      const email = `board-${Math.random().toString(36).slice(2, 8)}@example.org`;
      const host = await mount({ apiBase: api.url, lang: 'en_GB', country: 'DE', alerts: 'true' });
      const root = await widgetRoot(host);
      await waitFor(() => expect(names(root).length).toBeGreaterThan(0));
      const ui = within(root);
      fireEvent.change(ui.getByLabelText('Experience'), { target: { value: 'one_two' } });
      fireEvent.click(ui.getByRole('button', { name: 'Notify me about new results' }));
      const dialog = within(await waitFor(() => ui.getByTestId('alert-dialog')));
      expect(dialog.getByTestId('alert-filters').textContent).toContain('Experience: 1–2 years');
      fireEvent.change(dialog.getByLabelText('E-mail'), { target: { value: 'nope' } });
      fireEvent.click(dialog.getByRole('button', { name: 'Subscribe' }));
      const error = () => root.querySelector('[data-testid="alert-dialog"] .field__error');
      await waitFor(() => expect(error()?.textContent).toContain('name@example.com'));
      fireEvent.change(dialog.getByLabelText('E-mail'), { target: { value: email } });
      fireEvent.click(dialog.getByLabelText('Once a week'));
      fireEvent.click(dialog.getByRole('button', { name: 'Subscribe' }));
      await waitFor(() => expect(root.textContent).toContain('Check your inbox to confirm'));
      const stored = (await storedAlerts()).filter((a) => a.email === email);
      expect(stored).toEqual([
        {
          email,
          kind: 'vacancies',
          filters: { country: 'DE', category: 'all', experience: 'one_two' },
          frequency: 'weekly',
          locale: 'en_GB',
          confirmed_at: null,
        },
      ]);

      const board = await mount({
        apiBase: api.url,
        lang: 'en_GB',
        serviceId: bakery.id,
        alerts: 'true',
      });
      const boardRoot = await widgetRoot(board);
      await waitFor(() => expect(names(boardRoot).length).toBeGreaterThan(0));
      expect(
        within(boardRoot).queryByRole('button', { name: 'Notify me about new results' }),
      ).toBeNull();
    },
  );
});
