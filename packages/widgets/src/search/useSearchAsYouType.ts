import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { searchesAsTyped, SETTLED_DELAY_MS, TYPING_DELAY_MS } from './searchModel.js';

/**
 * Search as you type, for `<poruch-search>` and the site's home page: once the typed text has
 * stood still for TYPING_DELAY_MS and differs from the text searched, `search(typed)` is called
 * (text that `searchesAsTyped` refuses waits). The caller's search replaces the running request,
 * whose late answer is dropped (useResource, the home page's own load).
 *
 * @param typed The text in the search box.
 * @param searched The text of the search shown.
 * @param search Starts a search for the text.
 */
export function useSearchAsYouType(
  typed: string,
  searched: string,
  search: (q: string) => void,
): void {
  const searchRef = useRef(search);
  useLayoutEffect(() => {
    searchRef.current = search;
  });
  useEffect(() => {
    if (typed.trim() === searched.trim() || !searchesAsTyped(typed)) return;
    const timer = setTimeout(() => searchRef.current(typed), TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, searched]);
}

/**
 * The value once it has stayed the same for `delayMs`: what a live region says, so a screen
 * reader hears the results count once the visitor stops typing, not after every answer.
 */
export function useSettled<T>(value: T, delayMs = SETTLED_DELAY_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
