/**
 * What the dashboard's screens give `<poruch-dashboard>` (the site uses the widgets as React
 * components, docs/architecture.md, Widgets): the site's language, its confirm dialog before a
 * deletion, and its toasts for the success messages. The widget does the calls (session cookie and
 * `x-xsrf-token`), the loading, empty and error states, and the lists.
 */
import { useMemo } from 'react';
import type { PoruchDashboardProps } from '@poruch/widgets';
import { useApp } from '../../app/context.js';

export function usePartnerWidget(): Pick<PoruchDashboardProps, 'lang' | 'confirm' | 'onNotice'> {
  const { t, locale, confirm, showToast } = useApp();
  return useMemo(
    () => ({
      lang: locale,
      confirm: async ({ title, message }) =>
        (await confirm({
          header: title,
          message,
          acceptLabel: t('common.delete'),
          rejectLabel: t('common.cancel'),
          danger: true,
        })) === 'accept',
      onNotice: ({ key }) =>
        showToast({ severity: 'success', summary: t('success.summary'), detail: t(key) }),
    }),
    [t, locale, confirm, showToast],
  );
}
