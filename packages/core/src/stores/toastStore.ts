import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ToastMessage } from '../schemas/options.js';

/** How long a toast stays, in ms, when its message sets no life. */
export const TOAST_DEFAULT_LIFE = 3000;

/** Life of the main toast container's messages, in ms. */
export const MAIN_TOAST_LIFE = 1_000_000;

/** Width of a toast. */
export const TOAST_WIDTH = '25rem';

/** A toast on screen: the message with its defaults filled in and its id. */
export interface Toast extends ToastMessage {
  /** Unique within its store, increasing. */
  readonly id: number;
  /** Milliseconds before it closes itself. */
  readonly life: number;
  readonly sticky: boolean;
  readonly closable: boolean;
  /** True while the pointer is over it: its timer is stopped. */
  readonly paused: boolean;
}

export interface ToastState {
  /** Toasts on screen, oldest first. */
  readonly toasts: readonly Toast[];
  /**
   * Shows a toast and returns its id. It closes itself after `life` ms unless it is sticky.
   * `life` defaults to the store's default life (3000 ms), `closable` to true, `sticky` to false.
   */
  show(message: ToastMessage): number;
  /** Closes a toast now. Unknown ids are ignored. */
  close(id: number): void;
  /** Closes every toast, or only those of container `key`. */
  clear(key?: string): void;
  /** Stops a toast's timer while the pointer is over it. */
  pause(id: number): void;
  /** Restarts a paused toast's timer with its full life (the pointer left). */
  resume(id: number): void;
}

export type ToastStore = StoreApi<ToastState>;

export interface ToastStoreOptions {
  /** Life of a toast whose message sets none, in ms. Defaults to 3000 ({@link TOAST_DEFAULT_LIFE}). */
  defaultLife?: number;
}

/**
 * A toast store. Timers live outside the state and are cleared whenever their toast closes,
 * so a closed toast never fires.
 */
export function createToastStore(options: ToastStoreOptions = {}): ToastStore {
  const defaultLife = options.defaultLife ?? TOAST_DEFAULT_LIFE;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  let nextId = 1;

  const stopTimer = (id: number) => {
    const timer = timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.delete(id);
  };

  return createStore<ToastState>()((set, get) => {
    const startTimer = (toast: Toast) => {
      stopTimer(toast.id);
      if (toast.sticky) return;
      timers.set(
        toast.id,
        setTimeout(() => get().close(toast.id), toast.life),
      );
    };

    const patch = (id: number, change: Partial<Pick<Toast, 'paused'>>): Toast | undefined => {
      let changed: Toast | undefined;
      set((s) => ({
        toasts: s.toasts.map((t) => (t.id === id ? (changed = { ...t, ...change }) : t)),
      }));
      return changed;
    };

    return {
      toasts: [],
      show(message) {
        const toast: Toast = {
          ...message,
          id: nextId++,
          life: message.life ?? defaultLife,
          sticky: message.sticky ?? false,
          closable: message.closable ?? true,
          paused: false,
        };
        set((s) => ({ toasts: [...s.toasts, toast] }));
        startTimer(toast);
        return toast.id;
      },
      close(id) {
        stopTimer(id);
        if (!get().toasts.some((t) => t.id === id)) return;
        set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
      },
      clear(key) {
        const closing = get().toasts.filter((t) => key === undefined || t.key === key);
        closing.forEach((t) => stopTimer(t.id));
        set((s) => ({ toasts: s.toasts.filter((t) => !closing.includes(t)) }));
      },
      pause(id) {
        if (!get().toasts.some((t) => t.id === id && !t.paused)) return;
        stopTimer(id);
        patch(id, { paused: true });
      },
      resume(id) {
        if (!get().toasts.some((t) => t.id === id && t.paused)) return;
        const toast = patch(id, { paused: false });
        if (toast) startTimer(toast);
      },
    };
  });
}

/** The toast store of this page: the API client's error toasts land here. */
export const toastStore: ToastStore = createToastStore();

/** Shows a toast in the page's {@link toastStore}; returns its id. */
export const showToast = (message: ToastMessage): number => toastStore.getState().show(message);
