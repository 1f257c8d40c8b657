import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MIN_TYPED_LENGTH,
  searchesAsTyped,
  SETTLED_DELAY_MS,
  TYPING_DELAY_MS,
} from '../searchModel.js';
import { useSearchAsYouType, useSettled } from '../useSearchAsYouType.js';

/** The timing of search as you type, on a fake clock. */
describe('useSearchAsYouType', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const typing = (searched = '') => {
    const search = vi.fn<(q: string) => void>();
    const hook = renderHook(({ typed, searched }) => useSearchAsYouType(typed, searched, search), {
      initialProps: { typed: searched, searched },
    });
    const type = (typed: string) => hook.rerender({ typed, searched });
    return { search, type };
  };

  it('searches once typing has paused for the delay, with the last text', () => {
    const { search, type } = typing();
    type('пе');
    act(() => vi.advanceTimersByTime(TYPING_DELAY_MS - 1));
    type('пек');
    act(() => vi.advanceTimersByTime(TYPING_DELAY_MS - 1));
    expect(search).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(search).toHaveBeenCalledTimes(1);
    expect(search).toHaveBeenCalledWith('пек');
  });

  it('waits for a second character; an emptied box searches everything again', () => {
    const { search, type } = typing('пекарня');
    type('п');
    act(() => vi.advanceTimersByTime(10 * TYPING_DELAY_MS));
    expect(search).not.toHaveBeenCalled();
    type('  ');
    act(() => vi.advanceTimersByTime(TYPING_DELAY_MS));
    expect(search).toHaveBeenCalledWith('  ');
  });

  it('does not search the text already searched (spaces at the ends aside)', () => {
    const { search, type } = typing('пекарня');
    type('пекарня ');
    act(() => vi.advanceTimersByTime(10 * TYPING_DELAY_MS));
    expect(search).not.toHaveBeenCalled();
  });

  it('the minimum length', () => {
    expect(MIN_TYPED_LENGTH).toBe(2);
    expect(['', '  ', 'ab', ' ab ', 'стоматолог'].map(searchesAsTyped)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['a', ' я '].map(searchesAsTyped)).toEqual([false, false]);
  });

  it('useSettled: a value once it has stayed the same for the delay', () => {
    const hook = renderHook(({ value }) => useSettled(value), { initialProps: { value: 'a' } });
    hook.rerender({ value: 'b' });
    act(() => vi.advanceTimersByTime(SETTLED_DELAY_MS - 1));
    hook.rerender({ value: 'c' });
    act(() => vi.advanceTimersByTime(SETTLED_DELAY_MS - 1));
    expect(hook.result.current).toBe('a');
    act(() => vi.advanceTimersByTime(1));
    expect(hook.result.current).toBe('c');
  });
});
