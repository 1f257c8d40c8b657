export interface StatusMessageProps {
  /** `loading` and `empty` are announced politely, `success` as status. Errors: ErrorState. */
  kind: 'loading' | 'empty' | 'success';
  /** The message, already translated. */
  text: string;
}

/** A loading, empty or success message inside a widget, never a blank box. */
export function StatusMessage({ kind, text }: StatusMessageProps) {
  return (
    <div
      className={`status status--${kind}`}
      part={`status status-${kind}`}
      role="status"
      aria-live="polite"
    >
      {kind === 'loading' && <span className="spinner" aria-hidden="true" />}
      <span>{text}</span>
    </div>
  );
}
