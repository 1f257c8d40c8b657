import { cleanup, render } from '@testing-library/react';
import { fireEvent, waitFor, within } from '@testing-library/dom';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createI18n,
  translator,
  type AlertSearch,
  type LocaleCode,
  type PushSubscriptionInput,
} from '@poruch/core';
import { createApi } from '@poruch/core/lite';
import { apiServerForSuite } from '../../__tests__/helpers/apiServer.js';
import { fetchAddressSuggestions } from '../../dashboard/serviceFormModel.js';
import { AlertDialog, type AlertPushOffer } from '../AlertDialog.js';

/**
 * The alert dialog against the real API: "within R km of a place" (a place taken from the
 * suggestions, a radius) and "Also notify me on this device", offered only when the app passes
 * its push offer (the widgets never do).
 */
const api = apiServerForSuite({ RATE_ALERT_PER_IP: '1000', RATE_ALERT_PER_EMAIL: '1000' });

afterEach(cleanup);

const SERVICES: AlertSearch = {
  kind: 'services',
  filters: { q: 'перукар', country: 'PL', category: 'all' },
};

function open(
  { search = SERVICES, push, locale = 'en_GB' as LocaleCode } = {} as {
    search?: AlertSearch;
    push?: AlertPushOffer;
    locale?: LocaleCode;
  },
) {
  const t = translator(createI18n(locale));
  const client = createApi({ baseUrl: api.url });
  const view = render(
    <AlertDialog
      api={client}
      t={t}
      locale={locale}
      search={search}
      push={push}
      onClose={() => {}}
    />,
  );
  return within(view.getByTestId('alert-dialog'));
}

async function stored(email: string) {
  const res = await api.database.db.execute(
    `select a.filters, p.endpoint, p.confirmed_at
       from alert_subscriptions a left join alert_push_subscriptions p on p.alert_id = a.id
      where a.email = '${email}'`,
  );
  return (res.rows ?? res) as {
    filters: Record<string, unknown>;
    endpoint: string | null;
    confirmed_at: string | null;
  }[];
}

const email = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@example.org`;
const DEVICE: PushSubscriptionInput = {
  endpoint: 'https://push.example.com/send/device-1',
  keys: { p256dh: 'BNc3', auth: 'k9' },
};

describe('AlertDialog: a place and a radius', () => {
  it('subscribes within the chosen radius of a place taken from the suggestions', async () => {
    // The gazetteer is built on the first lookup (about half a second): not the dialog's time.
    const client = createApi({ baseUrl: api.url });
    expect(
      await fetchAddressSuggestions(client, 'Krak', 'PL', new AbortController().signal),
    ).not.toEqual([]);
    const ui = open();
    const address = email('near');
    const place = ui.getByRole('combobox', { name: 'Near a place (optional)' });
    fireEvent.change(place, { target: { value: 'Krak' } });
    const option = await waitFor(() => ui.getByRole('option', { name: /Kraków/ }), {
      timeout: 3000,
    });
    fireEvent.click(option);
    fireEvent.change(ui.getByLabelText('Within'), { target: { value: '50' } });
    fireEvent.change(ui.getByLabelText('E-mail'), { target: { value: address } });
    fireEvent.click(ui.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(ui.getByRole('status').textContent).toContain(address));
    const [row] = await stored(address);
    expect(row!.filters).toMatchObject({
      q: 'перукар',
      country: 'PL',
      near: { radiusKm: 50, label: expect.stringContaining('Kraków') },
    });
    const near = row!.filters.near as { lat: number; lng: number };
    expect(near.lat).toBeCloseTo(50.06, 1);
    expect(near.lng).toBeCloseTo(19.94, 1);
  }, 30_000);

  it('refuses a place typed but not taken from the suggestions, in the visitor’s language', async () => {
    const ui = open({ locale: 'ua' });
    const address = email('typed');
    fireEvent.change(ui.getByRole('combobox', { name: 'Поблизу місця (необов’язково)' }), {
      target: { value: 'Десь біля річки' },
    });
    fireEvent.change(ui.getByLabelText('Електронна пошта'), { target: { value: address } });
    fireEvent.click(ui.getByRole('button', { name: 'Підписатися' }));
    await waitFor(() => expect(ui.getByText(/Виберіть місце зі списку підказок/)).toBeTruthy());
    expect(await stored(address)).toEqual([]);
  });

  it('prefills the place and radius of a search that has them, and offers none for vacancies', async () => {
    const near = { lat: 52.23, lng: 21.01, radiusKm: 10, label: 'Warszawa' };
    const ui = open({ search: { kind: 'services', filters: { category: 'all', near } } });
    expect(
      (ui.getByRole('combobox', { name: 'Near a place (optional)' }) as HTMLInputElement).value,
    ).toBe('Warszawa');
    expect((ui.getByLabelText('Within') as HTMLSelectElement).value).toBe('10');
    // Not a line of the read-only search as well.
    expect(ui.getByTestId('alert-filters').textContent).not.toContain('Warszawa');
    cleanup();
    const vacancies = open({ search: { kind: 'vacancies', filters: { category: 'all' } } });
    expect(vacancies.queryByRole('combobox', { name: 'Near a place (optional)' })).toBeNull();
  });
});

describe('AlertDialog: push on this device', () => {
  it('offers no push without the app’s offer (a widget, a browser tab)', () => {
    const ui = open();
    expect(ui.queryByRole('checkbox', { name: 'Also notify me on this device' })).toBeNull();
  });

  it('with the offer: sends the device with the alert, stored pending until the e-mail is confirmed', async () => {
    let asked = 0;
    const ui = open({ push: { subscribe: async () => (asked++, DEVICE) } });
    const address = email('device');
    const box = ui.getByRole('checkbox', { name: 'Also notify me on this device' });
    expect((box as HTMLInputElement).checked).toBe(false);
    fireEvent.click(box);
    fireEvent.change(ui.getByLabelText('E-mail'), { target: { value: address } });
    fireEvent.click(ui.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() =>
      expect(ui.getByRole('status').textContent).toContain(
        'Once you confirm, this device will get notifications too.',
      ),
    );
    expect(asked).toBe(1);
    expect(await stored(address)).toEqual([
      expect.objectContaining({ endpoint: DEVICE.endpoint, confirmed_at: null }),
    ]);
  });

  it('unticked, or refused by the browser: the alert goes without the device', async () => {
    let asked = 0;
    const offer = { subscribe: async () => (asked++, null) };
    const plain = open({ push: offer });
    const first = email('unticked');
    fireEvent.change(plain.getByLabelText('E-mail'), { target: { value: first } });
    fireEvent.click(plain.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(plain.getByRole('status').textContent).toContain(first));
    expect(asked).toBe(0);
    cleanup();

    const ui = open({ push: offer });
    const address = email('refused');
    fireEvent.click(ui.getByRole('checkbox', { name: 'Also notify me on this device' }));
    fireEvent.change(ui.getByLabelText('E-mail'), { target: { value: address } });
    fireEvent.click(ui.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() =>
      expect(ui.getByRole('status').textContent).toContain(
        'Notifications are blocked on this device',
      ),
    );
    expect(asked).toBe(1);
    expect(await stored(address)).toEqual([expect.objectContaining({ endpoint: null })]);
  });
});
