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
] as const;
