export interface StatusMessageProps {
  /** `loading` is announced politely, `error` as an alert, `empty` and `success` as status. */
  kind: 'loading' | 'empty' | 'error' | 'success';
  /** The message, already translated. */
  text: string;
  /** Label of the retry button; no button without it or without `onRetry`. */
  retryLabel?: string;
  onRetry?: () => void;
}

/** A loading, empty, error or success message inside a widget, never a blank box. */
export function StatusMessage({ kind, text, retryLabel, onRetry }: StatusMessageProps) {
  return (
    <div
      className={`status status--${kind}`}
      part={`status status-${kind}`}
      role={kind === 'error' ? 'alert' : 'status'}
      aria-live={kind === 'error' ? 'assertive' : 'polite'}
    >
      {kind === 'loading' && <span className="spinner" aria-hidden="true" />}
      <span>{text}</span>
      {onRetry && retryLabel && (
        <button type="button" className="button button--secondary" part="button" onClick={onRetry}>
          {retryLabel}
        </button>
      )}
    </div>
  );
}
