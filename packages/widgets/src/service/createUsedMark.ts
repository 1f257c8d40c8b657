import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Api } from '@poruch/core/lite';
import { getBrowserId, hasMarkedUsed, rememberMarkedUsed } from './browserId.js';

export interface UsedMarkState {
  count: number;
  /** This browser has marked the service (now or before). */
  marked: boolean;
  /** The server said this browser had marked it before. */
  already: boolean;
  sending: boolean;
  error: unknown;
}

export interface UsedMark {
  readonly store: StoreApi<UsedMarkState>;
  /** Posts "I have used this service" once per browser. */
  mark(): Promise<void>;
  destroy(): void;
}

/**
 * "I have used this service": `POST services/:id/used` anonymously with this browser's random
 * id, counted once per browser by the server.
 */
export function createUsedMark(api: Api, serviceId: string, count: number): UsedMark {
  const store = createStore<UsedMarkState>(() => ({
    count,
    marked: hasMarkedUsed(serviceId),
    already: false,
    sending: false,
    error: null,
  }));
  const controller = new AbortController();
  return {
    store,
    async mark() {
      if (store.getState().sending) return;
      store.setState({ sending: true, error: null });
      try {
        const answer = await api.send<{ usedCount: number; counted: boolean }>(
          'POST',
          `services/${encodeURIComponent(serviceId)}/used`,
          { browserId: getBrowserId() },
          { signal: controller.signal },
        );
        rememberMarkedUsed(serviceId);
        store.setState({
          sending: false,
          marked: true,
          already: !answer.counted,
          count: answer.usedCount,
        });
      } catch (e) {
        if (controller.signal.aborted) return;
        store.setState({ sending: false, error: e });
      }
    },
    destroy: () => controller.abort(),
  };
}
