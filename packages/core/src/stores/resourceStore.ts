import { createStore, type StoreApi } from 'zustand/vanilla';
import { isAbort } from '../client/ApiError.js';

/**
 * Where a load stands. `data` is the last data loaded and stays through a reload and a failed
 * load; `error` is the failure of the last load that ended, kept while a reload runs.
 */
export type ResourceState<T> =
  | { readonly status: 'loading'; readonly data: T | undefined; readonly error: unknown }
  | { readonly status: 'ready'; readonly data: T; readonly error: undefined }
  | { readonly status: 'error'; readonly data: T | undefined; readonly error: unknown };

/** Data loaded from the server, held in a store: one load at a time, the newest wins. */
export interface ResourceStore<T> {
  readonly store: StoreApi<ResourceState<T>>;
  /**
   * Starts a load and aborts the running one, whose answer is then dropped. Resolves when the
   * load has ended; never rejects (a failure is the `error` state). An abort is no failure.
   */
  load(load: (signal: AbortSignal) => Promise<T>): Promise<void>;
  /** Applies a change the server confirmed, without a new round trip. Only when ready. */
  setData(update: (data: T) => T): void;
  /** Aborts the running load, if any; the state stays as it is. */
  abort(): void;
}

/** A {@link ResourceStore}, loading nothing until `load` is called. */
export function createResourceStore<T>(): ResourceStore<T> {
  const store = createStore<ResourceState<T>>(() => ({
    status: 'loading',
    data: undefined,
    error: undefined,
  }));
  let running: AbortController | undefined;
  const abort = () => {
    running?.abort();
    running = undefined;
  };
  return {
    store,
    async load(load) {
      abort();
      const own = (running = new AbortController());
      const { data, error } = store.getState();
      store.setState({ status: 'loading', data, error }, true);
      try {
        const loaded = await load(own.signal);
        if (!own.signal.aborted)
          store.setState({ status: 'ready', data: loaded, error: undefined });
      } catch (e) {
        if (!own.signal.aborted && !isAbort(e)) {
          store.setState({ status: 'error', data: store.getState().data, error: e }, true);
        }
      } finally {
        if (running === own) running = undefined;
      }
    },
    setData(update) {
      const s = store.getState();
      if (s.status === 'ready')
        store.setState({ status: 'ready', data: update(s.data), error: undefined });
    },
    abort,
  };
}
