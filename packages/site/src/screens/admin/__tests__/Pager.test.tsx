import { createI18n } from '@poruch/core';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProvider } from '../../../app/context.js';
import { createAppServices } from '../../../app/services.js';
import { navigate } from '../../../router/index.js';
import { Pager } from '../Pager.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let host: HTMLElement;

beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

async function show(url: string, total: number) {
  navigate(url, { replace: true });
  const before = window.history.length;
  await act(async () =>
    root.render(
      <AppProvider services={createAppServices(createI18n('en_GB'))}>
        <Pager total={total} pageSize={20} label="Reports" />
      </AppProvider>,
    ),
  );
  return { added: window.history.length - before };
}

describe('the admin lists pager', () => {
  it('shows page N of M with previous and next', async () => {
    await show('/admin/reports?page=2', 45);
    expect(host.querySelector('nav')?.textContent).toContain('2');
    expect(host.querySelector('nav span')?.textContent).toMatch(/2\D+3/);
    expect(window.location.search).toBe('?page=2');
  });

  it('replaces a page past the end with the last page, adding no history entry', async () => {
    const { added } = await show('/admin/reports?page=7', 45);
    expect(window.location.search).toBe('?page=3');
    expect(added).toBe(0);
    expect(host.querySelector('nav span')?.textContent).toMatch(/3\D+3/);
  });

  it('goes back to the first page (no page in the URL) when one page is left', async () => {
    await show('/admin/reports?page=2', 20);
    expect(window.location.search).toBe('');
    expect(host.querySelector('nav')).toBeNull();
  });
});
