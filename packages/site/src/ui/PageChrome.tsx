import { ConfirmDialog } from '../chrome/ConfirmDialog.js';
import { CookieBanner } from '../chrome/CookieBanner.js';
import { InstallDialog } from '../chrome/InstallDialog.js';
import { Toasts } from '../chrome/Toasts.js';

/**
 * The page-wide parts beside the routed content: the cookie banner, the install dialog, the
 * toasts and the confirm dialog (which also asks the update question).
 */
export function PageChrome() {
  return (
    <>
      <CookieBanner />
      <InstallDialog />
      <Toasts />
      <ConfirmDialog />
    </>
  );
}
