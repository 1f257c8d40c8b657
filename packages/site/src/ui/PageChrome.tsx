/** The page-wide parts beside the routed content: toasts, confirm dialog, cookie banner. */
export function PageChrome() {
  return null;
}
