import type { ReactNode } from 'react';
import type { RouteDef } from '../routes.js';
import { SiteFooter } from './SiteFooter.js';
import { SiteHeader } from './SiteHeader.js';

/**
 * Header, content and (except on home and store) the footer text and the content's top margin
 * (docs/product.md, Layout and navigation). The page-wide parts (cookie banner, toasts, confirm
 * dialog, install prompt, update prompt) are rendered by main.tsx beside the router.
 */
export function Layout({ route, children }: { route: RouteDef; children: ReactNode }) {
  const withFooter = route.footer !== false;
  return (
    <div className="app" data-route={route.name}>
      <SiteHeader />
      <main
        id="main"
        tabIndex={-1}
        className={withFooter ? 'site-main site-main--margin' : 'site-main'}
      >
        {children}
      </main>
      {withFooter && <SiteFooter />}
    </div>
  );
}
