/**
 * The route table (docs/product.md, Layout and navigation). Every screen loads on demand.
 *
 * How to add a screen:
 * 1. Write `src/screens/<folder>/index.tsx` with a default-exported component. Read what you need
 *    with hooks: `useApp()` / `useT()` / `useAuth()` from `./app/context.js`; `useRoute()`,
 *    `useParams()`, `useQuery()`, `useNavigate()` and `<Link to>` from `./router/index.js`;
 *    `useSeo()` from `./app/seo.js` for the title, description and JSON-LD.
 * 2. Add an entry below: `name`, `path` (`:param`, optional last `:param?`, a final `/*` for
 *    sub-paths read through `useRoute().params['*']`), `screen: lazyScreen(() => import(...))`,
 *    `access`, `localeRule` when the "every locale except ua" rule applies, and the
 *    `title` key (and `description` key) of the page.
 * 3. Add its texts to BOTH packages/core/src/i18n/locales/ua.json and en_GB.json.
 *
 * The access rules are applied by `decideAccess` for every navigation; a screen never checks them
 * itself. After a login on a logged-out-only screen the app goes to `back` or /dashboard, and after a
 * logout to /login (see App.tsx): a screen only calls `auth.getState().login(...)` / `.logout()`.
 */
import type { AuthState, LocaleCode } from '@poruch/core';
import { isAdmin } from '@poruch/core';
import { lazyScreen, matchPath, type LazyScreen, type RouteParams } from './router/index.js';

/** Who may open a route. */
export type Access = 'everyone' | 'loggedOutOnly' | 'loggedInOnly' | 'adminOnly' | 'superAdminOnly';

export interface RouteDef {
  /** Unique name, given to the screen by `useRoute().name`. */
  readonly name: string;
  /** Path pattern for `matchPath`. */
  readonly path: string;
  readonly screen: LazyScreen;
  readonly access: Access;
  /**
   * The locale rule: in every locale except ua, the route is reachable only when logged in.
   * Defaults to false.
   */
  readonly localeRule?: boolean;
  /** Translation key of the document title. */
  readonly title: string;
  /** Translation key of the meta description. Defaults to `app.tagline`. */
  readonly description?: string;
  /**
   * The footer text and the content's top margin (every page except home and store). Defaults to
   * true.
   */
  readonly footer?: boolean;
}

const Home = lazyScreen(() => import('./pages/home/index.js'));
const Auth = lazyScreen(() => import('./screens/auth/index.js'));
const Register = lazyScreen(() => import('./screens/register/index.js'));
const Dashboard = lazyScreen(() => import('./screens/dashboard/index.js'));
const Admin = lazyScreen(() => import('./screens/admin/index.js'));
const Profile = lazyScreen(() => import('./screens/profile/index.js'));
const Unsubscribe = lazyScreen(() => import('./screens/unsubscribe/index.js'));
const Reconfirm = lazyScreen(() => import('./screens/reconfirm/index.js'));
const Alerts = lazyScreen(() => import('./screens/alerts/index.js'));
const StaticPage = lazyScreen(() => import('./pages/static/index.js'));
const Embed = lazyScreen(() => import('./screens/embed/index.js'));

export const ROUTES: readonly RouteDef[] = [
  { name: 'home', path: '/', screen: Home, access: 'everyone', title: 'home.title', footer: false },
  {
    name: 'login',
    path: '/login',
    screen: Auth,
    access: 'loggedOutOnly',
    localeRule: true,
    title: 'login.title',
  },
  {
    name: 'reset-password',
    path: '/reset-password',
    screen: Auth,
    access: 'loggedOutOnly',
    localeRule: true,
    title: 'reset_password.title',
  },
  {
    name: 'provide-help',
    path: '/provide-help',
    screen: Register,
    access: 'loggedOutOnly',
    localeRule: true,
    title: 'registration.title',
    description: 'registration.intro',
  },
  {
    name: 'dashboard',
    path: '/dashboard/*',
    screen: Dashboard,
    access: 'loggedInOnly',
    localeRule: true,
    title: 'dashboard.title',
  },
  // The super administrators' section of the administration (screens/admin/sections.ts),
  // before the rest of it.
  {
    name: 'admin-administrators',
    path: '/admin/administrators',
    screen: Admin,
    access: 'superAdminOnly',
    localeRule: true,
    title: 'admin.administrators_title',
  },
  {
    name: 'admin',
    path: '/admin/*',
    screen: Admin,
    access: 'adminOnly',
    localeRule: true,
    title: 'admin.list_title',
  },
  {
    name: 'about',
    path: '/about',
    screen: StaticPage,
    access: 'everyone',
    title: 'pages.about_title',
    description: 'pages.about_text',
  },
  {
    name: 'store',
    path: '/store',
    screen: StaticPage,
    access: 'everyone',
    title: 'pages.store_title',
    description: 'pages.store_text',
    footer: false,
  },
  {
    name: 'support',
    path: '/support',
    screen: StaticPage,
    access: 'everyone',
    title: 'pages.support_title',
    description: 'pages.support_text',
  },
  {
    name: 'embed',
    path: '/embed',
    screen: Embed,
    access: 'everyone',
    title: 'embed.title',
    description: 'embed.lead',
  },
  {
    name: 'privacy-policy',
    path: '/privacy-policy',
    screen: StaticPage,
    access: 'everyone',
    title: 'pages.privacy_policy_title',
  },
  {
    name: 'disclaimer',
    path: '/disclaimer',
    screen: StaticPage,
    access: 'everyone',
    title: 'disclaimer.title',
  },
  {
    name: 'reconfirm',
    path: '/confirm-service',
    screen: Reconfirm,
    access: 'everyone',
    title: 'reconfirm.title',
  },
  {
    name: 'unsubscribe',
    path: '/unsubscribe',
    screen: Unsubscribe,
    access: 'everyone',
    title: 'unsubscribe.title',
  },
  {
    name: 'alertsConfirm',
    path: '/alerts/confirm',
    screen: Alerts,
    access: 'everyone',
    title: 'alerts.confirm_title',
  },
  {
    name: 'alertsManage',
    path: '/alerts/manage',
    screen: Alerts,
    access: 'everyone',
    title: 'alerts.manage_title',
  },
  {
    name: 'profile',
    path: '/services/:id/:tab?',
    screen: Profile,
    access: 'everyone',
    title: 'home.view_profile',
  },
];

export interface ResolvedRoute {
  readonly route: RouteDef;
  readonly params: RouteParams;
}

/** The first route matching `path`, or null (an unknown path: the app sends it home). */
export function resolveRoute(path: string): ResolvedRoute | null {
  for (const route of ROUTES) {
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  return null;
}

/** What the access rules say about opening a route. */
export type AccessDecision =
  | { readonly kind: 'allow' }
  | { readonly kind: 'wait' }
  | {
      readonly kind: 'redirect';
      readonly to: string;
      /**
       * Set by the locale rule: the attempted path with its query. Home tells the visitor why
       * and offers Ukrainian, in which the page opens.
       */
      readonly onlyInUkrainian?: string;
    };

/**
 * The access rules, in order: wait while the login state is unknown; logged-in users
 * leave logged-out-only routes for home; outside ua the locale rule sends logged-out users home
 * (with the attempted URL, for the notice there);
 * logged-out users opening a logged-in route go to `login?back=<path>`; logged-in users who are
 * not administrators leave the administration for /dashboard, and administrators who are not
 * super administrators leave a super administrators' section for /admin.
 *
 * @param url the attempted path with its query, for `back`.
 */
export function decideAccess(
  route: RouteDef,
  auth: Pick<AuthState, 'status' | 'account'>,
  locale: LocaleCode,
  url: string,
): AccessDecision {
  if (route.access === 'everyone') return { kind: 'allow' };
  if (auth.status === 'unknown') return { kind: 'wait' };
  const loggedIn = auth.status === 'logged_in';
  if (route.access === 'loggedOutOnly' && loggedIn) return { kind: 'redirect', to: '/' };
  if (route.localeRule && locale !== 'ua' && !loggedIn)
    return { kind: 'redirect', to: '/', onlyInUkrainian: url };
  if (route.access === 'loggedOutOnly') return { kind: 'allow' };
  if (!loggedIn) return { kind: 'redirect', to: `/login?back=${encodeURIComponent(url)}` };
  const admin = route.access === 'adminOnly' || route.access === 'superAdminOnly';
  if (admin && !isAdmin(auth.account)) return { kind: 'redirect', to: '/dashboard' };
  if (route.access === 'superAdminOnly' && !auth.account?.isSuper)
    return { kind: 'redirect', to: '/admin' };
  return { kind: 'allow' };
}
