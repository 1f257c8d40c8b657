import { useState } from 'react';
import { useWidget } from '../shared/WidgetContext.js';
import { useDashboardOptions } from './options.js';

export interface ConfirmButtonProps {
  /** The button's visible text. */
  text: string;
  /** The button's accessible name, when the text alone is ambiguous in a list. */
  label?: string;
  /** The question's title and text, translated. */
  title: string;
  message: string;
  onConfirm: () => void;
}

/**
 * A delete button that asks first: through the host's `confirm` (the site's dialog) when given,
 * otherwise in place with Yes and No.
 */
export function ConfirmButton({ text, label, title, message, onConfirm }: ConfirmButtonProps) {
  const { t } = useWidget();
  const { confirm } = useDashboardOptions();
  const [asking, setAsking] = useState(false);
  if (asking)
    return (
      <span className="confirm" role="group" aria-label={message}>
        <span>{message}</span>
        <button
          type="button"
          className="button button--danger"
          part="button"
          onClick={() => {
            setAsking(false);
            onConfirm();
          }}
        >
          {t('confirm.accept')}
        </button>
        <button
          type="button"
          className="button button--secondary"
          part="button"
          onClick={() => setAsking(false)}
        >
          {t('confirm.reject')}
        </button>
      </span>
    );
  return (
    <button
      type="button"
      className="button button--danger"
      part="button"
      aria-label={label}
      onClick={() => {
        if (!confirm) return setAsking(true);
        void confirm({ title, message }).then((yes) => yes && onConfirm());
      }}
    >
      {text}
    </button>
  );
}
