import { createStore, type StoreApi } from 'zustand/vanilla';

/** Base stacking level of the confirm dialog. */
export const CONFIRM_BASE_Z_INDEX = 10000;

/**
 * How a confirm dialog ended: accept, reject, or cancel (close button, escape key, or a click
 * on the mask).
 */
export type ConfirmResult = 'accept' | 'reject' | 'cancel';

export interface ConfirmOptions {
  /** The question, already translated. */
  message: string;
  /** The dialog's title, already translated. Defaults to the `confirm.header` text. */
  header?: string;
  /** Label of the accept button. Defaults to the `confirm.accept` text. */
  acceptLabel?: string;
  /** Label of the reject button. Defaults to the `confirm.reject` text. */
  rejectLabel?: string;
  /**
   * The accept button destroys something (deletes, declines, removes): it takes the one danger
   * style of every destructive button. Defaults to false.
   */
  danger?: boolean;
}

/** The dialog on screen. */
export interface ConfirmRequest extends ConfirmOptions {
  /** Increases with every dialog, so a view can tell one from the next. */
  readonly id: number;
  /** Stacking level of the dialog's mask. Defaults to {@link CONFIRM_BASE_Z_INDEX}. */
  readonly zIndex: number;
}

export interface ConfirmState {
  /** The open dialog, or null. */
  readonly current: ConfirmRequest | null;
  /**
   * Opens a dialog and resolves with how it ended. One dialog is open at a time: opening
   * another cancels the one on screen.
   */
  confirm(options: ConfirmOptions): Promise<ConfirmResult>;
  /** Ends the open dialog with `accept`. */
  accept(): void;
  /** Ends the open dialog with `reject`. */
  reject(): void;
  /** Ends the open dialog with `cancel`. */
  cancel(): void;
}

export type ConfirmStore = StoreApi<ConfirmState>;

export interface ConfirmStoreOptions {
  /** Stacking level of the dialogs. Defaults to 10000 ({@link CONFIRM_BASE_Z_INDEX}). */
  zIndex?: number;
}

/** A confirm-dialog store: the view renders `current` and calls accept, reject or cancel. */
export function createConfirmStore(options: ConfirmStoreOptions = {}): ConfirmStore {
  const zIndex = options.zIndex ?? CONFIRM_BASE_Z_INDEX;
  let nextId = 1;
  let resolveCurrent: ((result: ConfirmResult) => void) | undefined;

  return createStore<ConfirmState>()((set) => {
    const end = (result: ConfirmResult) => {
      const resolve = resolveCurrent;
      resolveCurrent = undefined;
      set({ current: null });
      resolve?.(result);
    };
    return {
      current: null,
      confirm(request) {
        if (resolveCurrent) end('cancel');
        return new Promise<ConfirmResult>((resolve) => {
          resolveCurrent = resolve;
          set({ current: { ...request, id: nextId++, zIndex } });
        });
      },
      accept: () => end('accept'),
      reject: () => end('reject'),
      cancel: () => end('cancel'),
    };
  });
}

/** The confirm dialog of this page, available from anywhere. */
export const confirmStore: ConfirmStore = createConfirmStore();

/** Opens the page's confirm dialog; resolves with how it ended. */
export const openConfirm = (options: ConfirmOptions): Promise<ConfirmResult> =>
  confirmStore.getState().confirm(options);
