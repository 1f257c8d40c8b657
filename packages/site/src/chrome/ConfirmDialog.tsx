import { useEffect, useId, useRef } from 'react';
import { useApp } from '../app/context.js';
import { useStore } from 'zustand';

/**
 * The confirm dialog, available from anywhere, opened with `useApp().confirm()`. A destructive
 * question (`danger: true`) gets the danger style on its accept button.
 * It sits at stacking level 10000; the close button, the Escape key and a click on the mask all
 * end it with `cancel`.
 */
export function ConfirmDialog() {
  const { confirmStore, t } = useApp();
  const current = useStore(confirmStore, (s) => s.current);
  const titleId = useId();
  const textId = useId();
  const acceptRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!current) return;
    const previous = document.activeElement as HTMLElement | null;
    acceptRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        confirmStore.getState().cancel();
      } else if (e.key === 'Tab' && dialogRef.current) {
        // Keep focus inside the dialog.
        const items = dialogRef.current.querySelectorAll<HTMLElement>('button');
        const first = items[0];
        const last = items[items.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last?.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first?.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [current, confirmStore]);

  if (!current) return null;
  const { cancel, accept, reject } = confirmStore.getState();
  return (
    <div
      className="dialog-mask"
      style={{ zIndex: current.zIndex }}
      data-testid="confirm-mask"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) cancel();
      }}
    >
      <div
        ref={dialogRef}
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
      >
        <div className="dialog__header">
          <h2 id={titleId} className="dialog__title">
            {current.header ?? t('confirm.header')}
          </h2>
          <button
            type="button"
            className="dialog__close"
            aria-label={t('confirm.close')}
            onClick={cancel}
          >
            ×
          </button>
        </div>
        <p id={textId} className="dialog__text">
          {current.message}
        </p>
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={reject}>
            {current.rejectLabel ?? t('confirm.reject')}
          </button>
          <button
            ref={acceptRef}
            type="button"
            className={current.danger ? 'button button--danger' : 'button'}
            onClick={accept}
          >
            {current.acceptLabel ?? t('confirm.accept')}
          </button>
        </div>
      </div>
    </div>
  );
}
