/** The `part` names of the shared UI pieces (ui/), for a widget's `parts` list. */
export const UI_PARTS = [
  'root',
  'button',
  'retry',
  'error',
  'field',
  'label',
  'field-error',
  'status',
  'status-loading',
  'status-empty',
  'status-success',
  'flag',
  'pagination',
  // The alerts' button and dialog (AlertDialog.tsx), in <poruch-search> and <poruch-vacancies>.
  'alert-button',
  'alert-dialog',
] as const;
