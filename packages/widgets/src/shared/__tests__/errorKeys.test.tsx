import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { render } from '@testing-library/react';
import { waitFor } from '@testing-library/dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, createI18n, createToastStore, translator } from '@poruch/core';
import { widgetRoot } from '../../__tests__/helpers/shadow.js';
import { PoruchService } from '../../service/PoruchService.js';

/** Failures by service id: status, status text (HTTP/2 sends none), body, the expected key. */
const failures: Record<string, [number, string, string, string]> = {
  'text-only': [500, 'Internal Server Error', '', 'internal_server_error'],
  'no-text': [503, '', '', 'service_unavailable'],
  'catalogue-body': [
    429,
    '',
    JSON.stringify({ errors: { message: 'too_many_requests' } }),
    'too_many_requests',
  ],
  'server-key': [
    403,
    'Forbidden',
    JSON.stringify({ errors: { message: 'wrong_user_or_password' } }),
    'wrong_user_or_password',
  ],
  'not-json': [200, 'OK', '<html></html>', 'unknown_error'],
  'unknown-status': [418, '', '', 'unknown_error'],
};
const t = translator(createI18n('en_GB'));

let server: Server;
let base: string;

beforeAll(async () => {
  // A server that fails every call of a service in its own way.
  server = createServer((req, res) => {
    const id = decodeURIComponent(new URL(req.url!, 'http://x').pathname.split('/')[4] ?? '');
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors);
      return res.end();
    }
    const [status, text, body] = failures[id] ?? [404, 'Not Found', ''];
    res.writeHead(status, text, {
      ...cors,
      ...(body.startsWith('{') ? { 'content-type': 'application/json' } : {}),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('one table of error keys', () => {
  it.each(Object.keys(failures))(
    'a widget shows what the site toasts for the same failure (%s)',
    async (id) => {
      // The site: its client's error toast.
      const toasts = createToastStore();
      const site = createApiClient({ baseUrl: base, t, toasts });
      const key = failures[id]![3];
      await expect(site.get(`services/${id}`)).rejects.toMatchObject({ name: 'ApiError', key });
      const toasted = toasts.getState().toasts[0]?.summary;
      expect(toasted).toBe(t(`error.${key}`));
      expect(toasted).not.toMatch(/^Missing translation/);

      // A widget: its error state.
      const { container, unmount } = render(
        <PoruchService apiBase={base} lang="en_GB" serviceId={id} />,
      );
      const root = await widgetRoot(container);
      const shown = await waitFor(
        () => {
          const text = root.querySelector('.poruch-error__message')?.textContent;
          if (!text) throw new Error('no error state yet');
          return text;
        },
        { timeout: 5000 },
      );
      unmount();
      expect(shown).toBe(toasted);
    },
  );
});
