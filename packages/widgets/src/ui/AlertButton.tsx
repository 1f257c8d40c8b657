import { lazy, Suspense, useState } from 'react';
import type { AlertSearch } from '@poruch/core';
import type { AlertDialogProps } from './AlertDialog.js';

/** The dialog, with its validation, loaded the first time a visitor opens it. */
const AlertDialog = lazy(() =>
  import('./AlertDialog.js').then((m) => ({ default: m.AlertDialog })),
);

/**
 * "Notify me about new results" and the dialog it opens: the home page's and the widgets'
 * button. `search` is read when the dialog opens (the search at that moment).
 */
export function AlertButton({
  className,
  part,
  search,
  ...dialog
}: Omit<AlertDialogProps, 'onClose' | 'search'> & {
  className: string;
  part?: string;
  search: () => AlertSearch;
}) {
  const [open, setOpen] = useState<AlertSearch | null>(null);
  return (
    <>
      <button
        type="button"
        className={className}
        part={part}
        aria-haspopup="dialog"
        onClick={() => setOpen(search())}
      >
        {dialog.t('alerts.notify_button')}
      </button>
      {open && (
        <Suspense fallback={null}>
          <AlertDialog {...dialog} search={open} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </>
  );
}
