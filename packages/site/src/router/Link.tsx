import { forwardRef, useEffect, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { isInternal, navigate } from './history.js';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** Where to go: a path with optional query (`/login?back=%2Fdashboard`), or an external URL. */
  to: string;
  /** Replace the current history entry. Defaults to false. */
  replace?: boolean;
  /** Load the page from the server instead of routing in the page (menu `reload` flag). Defaults to false. */
  reload?: boolean;
}

/**
 * An `<a href>` that routes inside the page. Modified clicks (new tab, download), `target`
 * other than `_self` and links to other origins behave as plain links.
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, reload, onClick, target, ...rest },
  ref,
) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (
      e.defaultPrevented ||
      reload ||
      e.button !== 0 ||
      e.metaKey ||
      e.ctrlKey ||
      e.shiftKey ||
      e.altKey ||
      (target && target !== '_self') ||
      !isInternal(to)
    )
      return;
    e.preventDefault();
    navigate(to, { replace });
  };
  return <a {...rest} ref={ref} href={to} target={target} onClick={handle} />;
});

/** Redirects once rendered (`<Navigate to="/" replace />`). */
export function Navigate({ to, replace = true }: { to: string; replace?: boolean }) {
  useEffect(() => {
    navigate(to, { replace });
  }, [to, replace]);
  return null;
}
