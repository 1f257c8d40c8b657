import { useApp } from '../app/context.js';
import { useStore } from 'zustand';

/**
 * At most this many toasts show at once (the newest); the others wait their turn, so a burst of
 * toasts cannot cover a phone's screen. They sit above the cookie banner (styles.css).
 */
export const MAX_VISIBLE_TOASTS = 3;

/**
 * The toasts: bottom-centre, 25rem wide (TOAST_WIDTH). Hovering a toast pauses its
 * timer; leaving restarts it.
 */
export function Toasts() {
  const { toasts, t } = useApp();
  const all = useStore(toasts, (s) => s.toasts);
  const list = all.slice(-MAX_VISIBLE_TOASTS);
  const { close, pause, resume } = toasts.getState();
  return (
    <div className="toasts" aria-live="polite" aria-relevant="additions" data-testid="toasts">
      {list.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast--${toast.severity}`}
          role={toast.severity === 'error' ? 'alert' : 'status'}
          data-paused={toast.paused}
          onMouseEnter={() => pause(toast.id)}
          onMouseLeave={() => resume(toast.id)}
          onFocus={() => pause(toast.id)}
          onBlur={() => resume(toast.id)}
        >
          <div className="toast__body">
            <p className="toast__summary">{toast.summary}</p>
            {toast.detail && <p className="toast__detail">{toast.detail}</p>}
          </div>
          {toast.closable && (
            <button
              type="button"
              className="toast__close"
              aria-label={t('toast.close')}
              onClick={() => close(toast.id)}
            >
              ×
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
