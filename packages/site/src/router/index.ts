/**
 * A small router over the History API. Why not wouter or react-router (measured):
 * docs/architecture.md, "Hand-written infrastructure".
 *
 * - `<Link to="/about">` renders `<a href>` and routes in the page; `reload` loads from the server.
 * - `useNavigate()(to, { replace })` navigates from code; `navigate()` does the same outside React.
 * - `useRoute()` gives `{ name, pattern, params }` of the matched route; `useParams()` only the params.
 * - `useQuery()` gives `[URLSearchParams, setQuery]`; `setQuery({ q: 'x', page: null })` merges.
 * - `useLocation()` gives `{ path, search, hash, key }`.
 * - `<Navigate to="/" />` redirects when rendered.
 * - `onNavigationEnd(fn)` runs after every navigation (scroll to top, close the menu panel).
 *
 * The route table lives in ../routes.tsx.
 */
export {
  currentUrl,
  getLocation,
  isInternal,
  navigate,
  onNavigationEnd,
  subscribeLocation,
} from './history.js';
export type { NavigateOptions, NavigationListener, RouterLocation } from './history.js';
export { matchPath } from './match.js';
export type { RouteParams } from './match.js';
export { RouteContext, useLocation, useNavigate, useParams, useQuery, useRoute } from './hooks.js';
export type { QueryUpdate, RouteMatch } from './hooks.js';
export { Link, Navigate } from './Link.js';
export { lazyScreen } from './lazyScreen.js';
export type { LazyScreen } from './lazyScreen.js';
export type { LinkProps } from './Link.js';
