import type { PoruchDashboardProps } from '../dashboard/PoruchDashboard.js';
import type { MapProps } from '../map/PoruchMap.js';
import type { PoruchReportProps } from '../report/PoruchReport.js';
import type { SearchProps } from '../search/PoruchSearch.js';
import type { PoruchServiceProps } from '../service/PoruchService.js';
import type { WidgetState } from '../shared/WidgetContext.js';
import type { WidgetBaseProps } from '../shared/WidgetShell.js';
import type { VacancyBoardProps } from '../vacancies/VacancyBoard.js';

/** The props of a component whose value is a function: callbacks and renderers, React only. */
type FunctionProps<P> = {
  [K in keyof P]-?: NonNullable<P[K]> extends (...args: never[]) => unknown ? K : never;
}[keyof P];

/**
 * An element's properties: its component's props without the React-only ones (functions,
 * `host`, `readCredentials`, and `lang`, which is HTMLElement's own) and without `Extra`.
 * Each is the camelCase name of an attribute (`service-id` → `serviceId`).
 */
export type ElementProperties<P, Extra extends keyof P = never> = Omit<
  P,
  FunctionProps<P> | ReactOnly | Extra
>;

/** Props every component has that are not attributes. */
type ReactOnly = Extract<keyof WidgetBaseProps, 'host' | 'readCredentials' | 'lang'>;

/** What every `<poruch-*>` element has beside its own properties. */
export interface PoruchWidgetElement extends HTMLElement {
  /** `loading`, `ready` or `error`, as the `state` attribute says (null before the first render). */
  readonly state: WidgetState | null;
}

/** `<poruch-map>`. */
export interface PoruchMapElement extends PoruchWidgetElement, ElementProperties<MapProps> {}
/** `<poruch-search>`. */
export interface PoruchSearchElement extends PoruchWidgetElement, ElementProperties<SearchProps> {}
/** `<poruch-vacancies>` (`filters` is a prop of the React component only). */
export interface PoruchVacanciesElement
  extends PoruchWidgetElement, ElementProperties<VacancyBoardProps, 'filters'> {}
/** `<poruch-report>`. */
export interface PoruchReportElement
  extends PoruchWidgetElement, ElementProperties<PoruchReportProps> {}
/** `<poruch-service>` (`headingLevel` is a prop of the React component only). */
export interface PoruchServiceElement
  extends PoruchWidgetElement, ElementProperties<PoruchServiceProps, 'headingLevel'> {}
/** `<poruch-dashboard>`: `api-base`, `lang` and `theme` only (the rest is React only). */
export interface PoruchDashboardElement
  extends
    PoruchWidgetElement,
    ElementProperties<PoruchDashboardProps, 'view' | 'serviceId' | 'api'> {}

/** Every `<poruch-*>` element by tag. */
export interface PoruchElementTagNameMap {
  'poruch-map': PoruchMapElement;
  'poruch-search': PoruchSearchElement;
  'poruch-vacancies': PoruchVacanciesElement;
  'poruch-report': PoruchReportElement;
  'poruch-service': PoruchServiceElement;
  'poruch-dashboard': PoruchDashboardElement;
}

declare global {
  // `document.querySelector('poruch-map')` is a PoruchMapElement.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HTMLElementTagNameMap extends PoruchElementTagNameMap {}
}
