import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type DependencyList,
} from 'react';
import { createResourceStore, type ResourceState } from '@poruch/core';
import { useStore } from 'zustand';

export type Resource<T> = ResourceState<T> & {
  /** Loads again (a retry button, or after a change). */
  reload: () => void;
  /** Applies a change the server confirmed, without a new round trip. Only when ready. */
  setData: (update: (data: T) => T) => void;
};

/**
 * Loads data for a component and keeps it: `status` (loading, ready, error), `data` (kept while a
 * reload runs) and `error`. A change of `deps` or `reload()` aborts the running load and starts
 * a new one, so the newest load wins; unmounting aborts it too. The state lives in core's
 * resource store; the widgets wire it to their `state` attribute (shared/useWidgetResource.ts),
 * the site's screens use it as it is.
 *
 * @param load Receives an AbortSignal to pass to the call.
 * @param deps When any changes, the data is loaded again. Defaults to none.
 */
export function useResource<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList = [],
): Resource<T> {
  const [resource] = useState(createResourceStore<T>);
  const loadRef = useRef(load);
  useLayoutEffect(() => {
    loadRef.current = load;
  });
  const reload = useCallback(() => void resource.load((s) => loadRef.current(s)), [resource]);
  useEffect(() => {
    reload();
    return resource.abort;
    // `deps` stand for what `load` reads; `load` itself is a new function every render.
  }, [reload, ...deps]);
  return { ...useStore(resource.store), reload, setData: resource.setData };
}
