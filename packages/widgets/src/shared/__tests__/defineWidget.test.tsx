import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineWidget } from '../defineWidget.js';
import { ErrorState } from '../ErrorState.js';
import { mapMessages } from '../messages/mapMessages.js';
import { useWidgetResource } from '../useWidgetResource.js';
import { useWidget } from '../WidgetContext.js';
import { WidgetShell, type WidgetBaseProps } from '../WidgetShell.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let server: Server;
let base = '';
let fail = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-headers': 'content-type' });
      res.end();
      return;
    }
    if (fail) {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 503, errors: { message: 'service_unavailable' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ echo: req.url, cookie: req.headers.cookie ?? null }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

interface EchoProps extends WidgetBaseProps {
  country?: string;
  filters?: { online?: boolean };
  onSelect?: (d: unknown) => void;
}

function Echo({ country, filters }: EchoProps) {
  const { t, lang, emit } = useWidget();
  const { data, error, reload } = useWidgetResource<{ echo: string }>(
    ({ api }, signal) => api.get('map', { query: { country, online: filters?.online }, signal }),
    [country, filters?.online],
  );
  if (error) return <ErrorState error={error} onRetry={reload} />;
  return (
    <div>
      <p data-testid="lang">{lang}</p>
      <p data-testid="label">{t('map.label')}</p>
      <p data-testid="echo">{data?.echo}</p>
      <button type="button" onClick={() => emit('select', { id: 'x' })}>
        select
      </button>
    </div>
  );
}

const MESSAGES = [mapMessages];

function PoruchEcho(props: EchoProps) {
  return (
    <WidgetShell
      {...props}
      styles=""
      parts={['root', 'error']}
      messages={MESSAGES}
      handlers={props}
    >
      <Echo {...props} />
    </WidgetShell>
  );
}

defineWidget<EchoProps>({
  tag: 'poruch-echo',
  component: PoruchEcho,
  attributes: { country: 'string', filters: 'json' },
});

/** The widget's inner shadow root (react-shadow's) inside the element's own. */
const inner = (el: Element) =>
  (el.shadowRoot?.querySelector('.poruch-shell') ?? el.querySelector('.poruch-shell'))
    ?.shadowRoot ?? null;

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await act(() => new Promise((r) => setTimeout(r, 10)));
  }
};

describe.each(['element', 'react'] as const)('the widget shell (%s)', (kind) => {
  const mount = async (attrs: Record<string, string>) => {
    const box = document.createElement('div');
    document.body.append(box);
    if (kind === 'element') {
      const el = document.createElement('poruch-echo');
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      await act(async () => box.append(el));
      return { host: el as HTMLElement, box, unmount: () => box.remove() };
    }
    const root = createRoot(box);
    const props = { apiBase: attrs['api-base'], lang: attrs.lang, country: attrs.country };
    await act(async () => root.render(<PoruchEcho {...props} />));
    return {
      host: box,
      box,
      unmount: () => {
        act(() => root.unmount());
        box.remove();
      },
    };
  };

  it('loads through the API without cookies, translates, and marks the state', async () => {
    fail = false;
    document.cookie = 'session=secret';
    const { host, unmount } = await mount({ 'api-base': base, lang: 'en', country: 'PL' });
    const text = (id: string) => inner(host)?.querySelector(`[data-testid=${id}]`)?.textContent;
    await until(() => !!text('echo'));
    expect(text('echo')).toBe('/api/v1/map?country=PL');
    expect(text('lang')).toBe('en_GB');
    expect(text('label')).toBe('Map of services');
    const stateHolder = kind === 'element' ? host : host.querySelector('.poruch-shell')!;
    expect(stateHolder.getAttribute('state')).toBe('ready');
    unmount();
  });

  it('falls back to <html lang>', async () => {
    document.documentElement.lang = 'uk';
    const { host, unmount } = await mount({ 'api-base': base });
    await until(() => !!inner(host)?.querySelector('[data-testid=lang]'));
    expect(inner(host)?.querySelector('[data-testid=label]')?.textContent).toBe('Мапа сервісів');
    document.documentElement.lang = '';
    unmount();
  });

  it('shows a translated error with a retry that recovers', async () => {
    fail = true;
    const { host, unmount } = await mount({ 'api-base': base, lang: 'en_GB' });
    await until(() => !!inner(host)?.querySelector('[part~=error]'));
    expect(inner(host)?.querySelector('[part~=error]')?.textContent).toContain(
      'The service is unavailable',
    );
    fail = false;
    await act(async () => (inner(host)?.querySelector('button') as HTMLButtonElement).click());
    await until(() => !!inner(host)?.querySelector('[data-testid=echo]')?.textContent);
    unmount();
  });

  it('fires poruch:select, bubbling and composed, to the page', async () => {
    fail = false;
    const { host, unmount } = await mount({ 'api-base': base });
    await until(() => !!inner(host)?.querySelector('button'));
    const seen: CustomEvent[] = [];
    const on = (e: Event) => seen.push(e as CustomEvent);
    document.addEventListener('poruch:select', on);
    await act(async () => (inner(host)?.querySelector('button') as HTMLButtonElement).click());
    document.removeEventListener('poruch:select', on);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.detail).toEqual({ id: 'x' });
    expect(seen[0]!.bubbles && seen[0]!.composed).toBe(true);
    unmount();
  });
});

describe('the element', () => {
  it('takes objects on properties and reflects primitives to attributes', async () => {
    fail = false;
    const el = document.createElement('poruch-echo') as HTMLElement & Record<string, unknown>;
    el.setAttribute('api-base', base);
    await act(async () => document.body.append(el));
    el.country = 'DE';
    expect(el.getAttribute('country')).toBe('DE');
    el.filters = { online: true };
    const echo = () => inner(el)?.querySelector('[data-testid=echo]')?.textContent ?? '';
    await until(() => echo().includes('online=true'));
    expect(echo()).toBe('/api/v1/map?country=DE&online=true');
    expect(el.filters).toEqual({ online: true });
    el.remove();
  });

  it('unmounts the tree when removed and mounts it again when re-added', async () => {
    const el = document.createElement('poruch-echo');
    el.setAttribute('api-base', base);
    await act(async () => document.body.append(el));
    await until(() => !!inner(el));
    await act(async () => el.remove());
    await act(() => Promise.resolve());
    expect(el.shadowRoot!.querySelector('.poruch-shell')).toBeNull();
    await act(async () => document.body.append(el));
    await until(() => !!inner(el)?.querySelector('[data-testid=echo]')?.textContent);
    el.remove();
  });
});
