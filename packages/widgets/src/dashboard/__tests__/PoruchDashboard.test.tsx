import { cleanup } from '@testing-library/react';
import { fireEvent, waitFor, within } from '@testing-library/dom';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startApiServer,
  useOrigin,
  type ApiServer,
  type SeededService,
} from '../../__tests__/helpers/apiServer.js';
import { mountsFor, removeElements } from '../../__tests__/helpers/mounts.js';
import { stateOf, widgetRoot } from '../../__tests__/helpers/shadow.js';
import { PoruchDashboard } from '../PoruchDashboard.js';
import '../element.js';

let api: ApiServer;
let own: SeededService;
/** A partner of its own for adding services, so the other tests see one service. */
let adder: SeededService;
/** An approved service that a new one looks like (the same phone). */
let lookalike: SeededService;

beforeAll(async () => {
  api = await startApiServer();
  own = await api.addService({ name: 'Пекарня «Хліб»' }, { pending: true });
  adder = await api.addService({ name: 'Кав’ярня «Ранок»' });
  lookalike = await api.addService({ name: 'Лелека', phone: '+48 600-555-444' });
}, 60_000);

afterAll(async () => {
  await api?.close();
});

const clearCookies = () => {
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0]!.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
};

afterEach(() => {
  cleanup();
  removeElements('poruch-dashboard');
  clearCookies();
});

/** Logs the page in: the partner's session and anti-forgery cookies, as after a login. */
const logIn = (session: SeededService['session']) => {
  for (const pair of session.cookie.split('; ')) document.cookie = `${pair}; path=/`;
};

describe.each(mountsFor(PoruchDashboard, 'poruch-dashboard'))(
  '<poruch-dashboard> as a %s',
  (_n, mount) => {
    /** The dashboard logged in as `partner` (on the site's origin: useOrigin first). */
    const openAs = async (partner: SeededService) => {
      logIn(partner.session);
      const root = await widgetRoot(await mount({ apiBase: api.url, lang: 'en_GB' }));
      return { root, ui: within(root) };
    };

    it('on a foreign origin links to the site and calls nothing', async () => {
      useOrigin('http://partner.example:8000/');
      const host = await mount({ apiBase: api.url, lang: 'en_GB' });
      const root = await widgetRoot(host);
      const link = within(root).getByRole('link', { name: 'Log in to Poruch' });
      expect(link.getAttribute('href')).toBe(`${api.url}/login?back=%2Fdashboard`);
      expect(
        within(root)
          .getByRole('link', { name: 'Open your dashboard on Poruch' })
          .getAttribute('href'),
      ).toBe(`${api.url}/dashboard`);
      await waitFor(() => expect(stateOf(host)).toBe('ready'));
    });

    it('on the site logged out shows the login link', async () => {
      useOrigin(api.url);
      const host = await mount({ apiBase: api.url, lang: 'en_GB' });
      const root = await widgetRoot(host);
      await waitFor(() =>
        expect(within(root).getByRole('link', { name: 'Log in to Poruch' })).toBeTruthy(),
      );
    });

    it('logged in lists own services and manages vacancies', async () => {
      useOrigin(api.url);
      const { root, ui } = await openAs(own);
      await waitFor(() => expect(ui.getByRole('heading', { name: own.name })).toBeTruthy());
      expect(root.textContent).toContain('Status: Under review');
      fireEvent.click(ui.getByRole('button', { name: /^Vacancies/ }));
      fireEvent.click(await waitFor(() => ui.getByRole('button', { name: 'Add vacancy' })));
      fireEvent.click(ui.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(root.textContent).toContain('Name: required field'));
      const name = `Пекар ${Math.random().toString(36).slice(2, 6)}`;
      fireEvent.change(ui.getByLabelText('Job title'), { target: { value: name } });
      fireEvent.click(ui.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(root.textContent).toContain('The vacancy has been created'));
      const card = () => ui.getByText(name).closest('.card') as HTMLElement;
      fireEvent.click(within(card()).getByRole('button', { name: `Delete vacancy: ${name}` }));
      expect(within(card()).getByText('Delete this vacancy?')).toBeTruthy();
      fireEvent.click(within(card()).getByRole('button', { name: 'Yes' }));
      await waitFor(() => expect(root.textContent).toContain('The vacancy has been deleted'));
      expect(ui.queryByText(name)).toBeNull();
    });

    it('adds a service: the messages, the address looked up on submit, then its confirmation', async () => {
      useOrigin(api.url);
      const { root, ui } = await openAs(adder);
      fireEvent.click(await waitFor(() => ui.getByRole('button', { name: 'Add service' })));
      const form = await waitFor(() => root.querySelector<HTMLElement>('[part="service-form"]')!);
      const submit = () =>
        fireEvent.click(within(form).getByRole('button', { name: 'Add service' }));
      submit();
      await waitFor(() => expect(form.textContent).toContain('Name: required field'));
      // An empty country is required, not a wrong value.
      expect(form.textContent).toContain('Country: required field');

      const name = `Перукарня ${Math.random().toString(36).slice(2, 6)}`;
      fireEvent.change(ui.getByLabelText('Name'), { target: { value: name } });
      fireEvent.change(ui.getByLabelText('Country'), { target: { value: 'PL' } });
      fireEvent.change(ui.getByLabelText('Address'), { target: { value: 'Warszawa' } });
      // Not checked yet: the submit looks the address up, then asks for the confirmation.
      submit();
      // The first lookup loads the gazetteer: more than waitFor's default second.
      await waitFor(() => expect(form.textContent).toContain('Place: '), { timeout: 15_000 });
      expect(form.textContent).toContain('Please tick this box to continue');
      expect(form.textContent).not.toContain('required field');
      expect(ui.getByLabelText<HTMLInputElement>('Name').value).toBe(name);

      fireEvent.click(ui.getByLabelText(/^I confirm that the service will be shown on the map/));
      submit();
      await waitFor(() => expect(ui.getByRole('heading', { name })).toBeTruthy(), {
        timeout: 15_000,
      });
    }, 30_000);

    it('shows the approved lookalikes of a new service and sends the answer with it', async () => {
      useOrigin(api.url);
      const { root, ui } = await openAs(adder);
      fireEvent.click(await waitFor(() => ui.getByRole('button', { name: 'Add service' })));
      const form = await waitFor(() => root.querySelector<HTMLElement>('[part="service-form"]')!);
      const name = `Leleka ${Math.random().toString(36).slice(2, 6)}`;
      fireEvent.change(ui.getByLabelText('Name'), { target: { value: name } });
      fireEvent.change(ui.getByLabelText('Country'), { target: { value: 'PL' } });
      fireEvent.click(ui.getByLabelText('Online service'));
      fireEvent.change(ui.getByLabelText('Telephone'), { target: { value: '+48 600 555 444' } });
      const panel = await waitFor(
        () => {
          const found = root.querySelector<HTMLElement>('[part="duplicates"]');
          if (!found) throw new Error('no lookalikes shown yet');
          return found;
        },
        { timeout: 5_000 },
      );
      expect(panel.textContent).toContain('Is it already listed?');
      expect(panel.textContent).toContain('Лелека');
      expect(panel.textContent).toContain('Same phone number');
      const group = within(panel).getByRole('group', { name: 'Лелека' });
      fireEvent.click(within(group).getByLabelText('This is mine'));
      await waitFor(() =>
        expect(panel.textContent).toContain('the administrators will check that “Лелека” is yours'),
      );
      fireEvent.click(within(form).getByRole('button', { name: 'Add service' }));
      await waitFor(() => expect(ui.getByRole('heading', { name })).toBeTruthy(), {
        timeout: 15_000,
      });
      const { rows } = await api.database.db.$client.query(
        `SELECT a.answer, a.claim_status FROM duplicate_answers a
           JOIN services s ON s.id = a.service_id WHERE s.name = $1 AND a.candidate_id = $2`,
        [name, lookalike.id],
      );
      expect(rows).toEqual([{ answer: 'mine', claim_status: 'open' }]);
    }, 30_000);
  },
);
