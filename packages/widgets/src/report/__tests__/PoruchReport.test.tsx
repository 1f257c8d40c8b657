import { fireEvent, waitFor, within } from '@testing-library/dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { withOutage, type SeededService } from '../../__tests__/helpers/apiServer.js';
import { widgetSuite } from '../../__tests__/helpers/mounts.js';
import { widgetRoot } from '../../__tests__/helpers/shadow.js';
import { PoruchReport } from '../PoruchReport.js';
import '../element.js';

const { api, mounts } = widgetSuite(PoruchReport, 'poruch-report');
let service: SeededService;

beforeAll(async () => {
  service = await api.addService({ name: 'Юрист «Право»' });
}, 60_000);

const storedReports = async () => {
  const { sql } = await import(
    /* @vite-ignore */ new URL(
      '../../../../server/node_modules/drizzle-orm/index.js',
      import.meta.url,
    ).pathname
  );
  const res = await api.database.db.execute(
    sql`select reason, description, service_id from reports order by created_at`,
  );
  return (res.rows ?? res) as { reason: string; description: string; service_id: string }[];
};

describe.each(mounts)('<poruch-report> as a %s', (_n, mount) => {
  it('validates with the server schema, in the chosen language', async () => {
    const host = await mount({ apiBase: api.url, lang: 'en_GB', serviceId: service.id });
    const root = await widgetRoot(host);
    const ui = within(root);
    fireEvent.click(ui.getByRole('button', { name: 'Send the report' }));
    await waitFor(() => expect(root.textContent).toContain('Reason: required field'));
    fireEvent.click(ui.getByLabelText('Other'));
    await waitFor(() => expect(root.textContent).not.toContain('Reason: required field'));
    fireEvent.change(ui.getByLabelText(/Description/), { target: { value: 'x'.repeat(2001) } });
    fireEvent.click(ui.getByRole('button', { name: 'Send the report' }));
    await waitFor(() => expect(root.textContent).toContain('Enter no more than 2000 characters'));
  });

  it('sends anonymously, stores the report, fires poruch:report-sent and says thank you', async () => {
    const host = await mount({ apiBase: api.url, lang: 'ua', serviceId: service.id });
    const root = await widgetRoot(host);
    const ui = within(root);
    const events: CustomEvent[] = [];
    const listener = (e: Event) => events.push(e as CustomEvent);
    document.addEventListener('poruch:report-sent', listener);
    try {
      fireEvent.click(ui.getByLabelText('Неправильна адреса'));
      const text = `Переїхали ${Math.random()}`;
      fireEvent.change(ui.getByLabelText(/Опис/), { target: { value: text } });
      fireEvent.click(ui.getByRole('button', { name: 'Надіслати скаргу' }));
      await waitFor(() => expect(root.textContent).toContain('Дякуємо: скаргу надіслано'));
      expect(events).toHaveLength(1);
      expect(events[0]!.detail.serviceId).toBe(service.id);
      expect(events[0]!.composed).toBe(true);
      const rows = await storedReports();
      expect(rows.find((r) => r.description === text)).toMatchObject({
        reason: 'wrong_address',
        service_id: service.id,
      });
    } finally {
      document.removeEventListener('poruch:report-sent', listener);
    }
  });

  it('keeps what was typed and shows the error when the API is down', async () => {
    await withOutage(api, async (outage) => {
      const host = await mount({ apiBase: outage.url, lang: 'en_GB', serviceId: service.id });
      const root = await widgetRoot(host);
      const ui = within(root);
      fireEvent.click(ui.getByLabelText('Cannot get in touch'));
      fireEvent.change(ui.getByLabelText(/Description/), { target: { value: 'Phone is off' } });
      fireEvent.click(ui.getByRole('button', { name: 'Send the report' }));
      await waitFor(() =>
        expect(ui.getByRole('alert').textContent).toContain(
          'The service is unavailable: try again later',
        ),
      );
      expect((ui.getByLabelText(/Description/) as HTMLTextAreaElement).value).toBe('Phone is off');
      expect((ui.getByLabelText('Cannot get in touch') as HTMLInputElement).checked).toBe(true);
    });
  });

  it('shows the server’s answer for a service that does not exist', async () => {
    const host = await mount({
      apiBase: api.url,
      lang: 'en_GB',
      serviceId: '00000000-0000-4000-8000-000000000000',
    });
    const root = await widgetRoot(host);
    const ui = within(root);
    fireEvent.click(ui.getByLabelText('Other'));
    fireEvent.click(ui.getByRole('button', { name: 'Send the report' }));
    await waitFor(() =>
      expect(ui.getByRole('alert').textContent).toContain('Contact the administrator'),
    );
  });
});
