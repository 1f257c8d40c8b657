import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MAIN_TOAST_LIFE,
  TOAST_DEFAULT_LIFE,
  TOAST_WIDTH,
  createToastStore,
  showToast,
  toastStore,
} from '../../index.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const ids = (store: ReturnType<typeof createToastStore>) =>
  store.getState().toasts.map((t) => t.id);

describe('toast store', () => {
  it('exports the toast life and width constants', () => {
    expect(TOAST_DEFAULT_LIFE).toBe(3000);
    expect(MAIN_TOAST_LIFE).toBe(1_000_000);
    expect(TOAST_WIDTH).toBe('25rem');
  });

  it('show gives increasing ids and fills the defaults', () => {
    const store = createToastStore();
    const a = store.getState().show({ severity: 'success', summary: 'Done' });
    const b = store
      .getState()
      .show({ severity: 'info', summary: 'Info', life: 500, closable: false, key: 'main' });
    expect(b).toBeGreaterThan(a);
    expect(store.getState().toasts).toEqual([
      {
        id: a,
        severity: 'success',
        summary: 'Done',
        life: 3000,
        sticky: false,
        closable: true,
        paused: false,
      },
      {
        id: b,
        severity: 'info',
        summary: 'Info',
        life: 500,
        sticky: false,
        closable: false,
        paused: false,
        key: 'main',
      },
    ]);
  });

  it('closes itself after the default life of 3000 ms', () => {
    const store = createToastStore();
    const id = store.getState().show({ severity: 'info', summary: 'x' });
    vi.advanceTimersByTime(2999);
    expect(ids(store)).toEqual([id]);
    vi.advanceTimersByTime(1);
    expect(ids(store)).toEqual([]);
  });

  it('honours its own life and the store default', () => {
    const store = createToastStore({ defaultLife: 100 });
    store.getState().show({ severity: 'info', summary: 'short' });
    const long = store
      .getState()
      .show({ severity: 'info', summary: 'long', life: MAIN_TOAST_LIFE });
    vi.advanceTimersByTime(100);
    expect(ids(store)).toEqual([long]);
    vi.advanceTimersByTime(MAIN_TOAST_LIFE);
    expect(ids(store)).toEqual([]);
  });

  it('a sticky toast never closes by itself, only by close', () => {
    const store = createToastStore();
    const id = store.getState().show({ severity: 'warn', summary: 'stay', sticky: true, life: 10 });
    vi.advanceTimersByTime(60 * 60 * 1000);
    expect(ids(store)).toEqual([id]);
    store.getState().close(id);
    expect(ids(store)).toEqual([]);
  });

  it('hovering pauses the timer; leaving restarts it with the full life', () => {
    const store = createToastStore();
    const id = store.getState().show({ severity: 'info', summary: 'x' });
    vi.advanceTimersByTime(2500);
    store.getState().pause(id);
    expect(store.getState().toasts[0]?.paused).toBe(true);
    vi.advanceTimersByTime(10_000);
    expect(ids(store)).toEqual([id]);
    store.getState().resume(id);
    expect(store.getState().toasts[0]?.paused).toBe(false);
    vi.advanceTimersByTime(2999);
    expect(ids(store)).toEqual([id]);
    vi.advanceTimersByTime(1);
    expect(ids(store)).toEqual([]);
  });

  it('pause and resume of a sticky toast start no timer', () => {
    const store = createToastStore();
    const id = store.getState().show({ severity: 'info', summary: 'x', sticky: true });
    store.getState().pause(id);
    store.getState().resume(id);
    vi.advanceTimersByTime(100_000);
    expect(ids(store)).toEqual([id]);
  });

  it('close clears the timer; unknown ids are ignored', () => {
    const store = createToastStore();
    const id = store.getState().show({ severity: 'info', summary: 'x' });
    expect(vi.getTimerCount()).toBe(1);
    store.getState().close(id);
    expect(vi.getTimerCount()).toBe(0);
    store.getState().close(999);
    store.getState().pause(999);
    store.getState().resume(999);
    expect(ids(store)).toEqual([]);
  });

  it('clear closes all, or one container, and clears their timers', () => {
    const store = createToastStore();
    store.getState().show({ severity: 'info', summary: 'a', key: 'main' });
    const b = store.getState().show({ severity: 'info', summary: 'b' });
    store.getState().clear('main');
    expect(ids(store)).toEqual([b]);
    expect(vi.getTimerCount()).toBe(1);
    store.getState().clear();
    expect(ids(store)).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('notifies subscribers', () => {
    const store = createToastStore();
    const seen: number[] = [];
    const unsubscribe = store.subscribe((s) => seen.push(s.toasts.length));
    const id = store.getState().show({ severity: 'info', summary: 'x' });
    store.getState().close(id);
    unsubscribe();
    expect(seen).toEqual([1, 0]);
  });

  it('showToast goes to the page store', () => {
    const id = showToast({ severity: 'success', summary: 'ok' });
    expect(toastStore.getState().toasts.map((t) => t.id)).toContain(id);
    toastStore.getState().clear();
  });
});
