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
    expect(stateOf(host)).toBe('ready');
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
