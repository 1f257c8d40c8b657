import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createI18n } from '@poruch/core';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProvider } from '../../app/context.js';
import { createAppServices, type AppServices } from '../../app/services.js';
import { ConfirmDialog } from '../ConfirmDialog.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let host: HTMLElement;
let services: AppServices;

beforeEach(async () => {
  services = createAppServices(createI18n('en_GB'));
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(() =>
    root.render(
      <AppProvider services={services}>
        <ConfirmDialog />
      </AppProvider>,
    ),
  );
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

const acceptButton = () =>
  host.querySelector<HTMLButtonElement>('.dialog__actions button:last-child')!;

describe('the confirm dialog', () => {
  it('a destructive question gets the danger style on its accept button', async () => {
    await act(async () => {
      void services.confirm({ message: 'Delete?', acceptLabel: 'Delete', danger: true });
    });
    expect(acceptButton().textContent).toBe('Delete');
    expect(acceptButton().className).toBe('button button--danger');
    await act(async () => services.confirmStore.getState().cancel());
  });

  it('another question keeps the plain accept button', async () => {
    await act(async () => {
      void services.confirm({ message: 'Load the new version?' });
    });
    expect(acceptButton().className).toBe('button');
    await act(async () => services.confirmStore.getState().cancel());
  });
});

const SITE_SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WIDGETS_SRC = path.resolve(SITE_SRC, '../../widgets/src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === '__tests__' ? [] : sources(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Each `confirm(…)` call of a file with an object argument: its text, to the closing bracket. */
function confirmCalls(text: string): string[] {
  return [...text.matchAll(/\bconfirm\(\s*\{/g)].map((m) => {
    let depth = 0;
    for (let i = m.index + 'confirm'.length; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) return text.slice(m.index, i + 1);
    }
    return text.slice(m.index);
  });
}

/** A question that deletes, declines or removes: its keys say so. */
const DESTRUCTIVE = /['"`][\w.]*(delet|declin|remov)[\w.]*['"`]/;

/**
 * Every `confirm({ … })` in the site's and the widgets' code that asks to delete, decline or
 * remove something says `danger: true`, so a new destructive question cannot come out blue.
 */
describe('destructive questions', () => {
  const calls = [SITE_SRC, WIDGETS_SRC].flatMap(sources).flatMap((file) =>
    confirmCalls(readFileSync(file, 'utf8')).map((call) => ({
      file: path.relative(path.resolve(SITE_SRC, '../..'), file),
      call,
    })),
  );

  it('finds the confirm calls, the account deletion among them', () => {
    expect(calls.length).toBeGreaterThan(3);
    expect(calls.some((c) => c.call.includes('account_deletion.'))).toBe(true);
    expect(DESTRUCTIVE.test(`t('common.delete')`)).toBe(true);
    expect(DESTRUCTIVE.test(`t('reports.confirm_resolve')`)).toBe(false);
  });

  it('each asks with danger: true', () => {
    const blue = calls
      .filter((c) => DESTRUCTIVE.test(c.call) && !/\bdanger:\s*true\b/.test(c.call))
      .map((c) => c.file);
    expect(blue).toEqual([]);
  });
});
