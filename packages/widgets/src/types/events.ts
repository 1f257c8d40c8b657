import type { Service, ServiceProfile } from '@poruch/core';
import type { VacancyFilters } from '../vacancies/createVacancyBoard.js';
import type { FocusEventDetail, SearchEventDetail } from '../map/filters.js';
import type { MapMoveDetail, MapSelectDetail } from '../map/PoruchMap.js';
import type { ReportSentDetail } from '../report/ReportForm.js';
import type { ProfileTab } from '../service/ServiceProfile.js';

// The detail of every `poruch:*` event, by event. Each event bubbles and is composed, so the
// host page hears it on the element, an ancestor or `document`; the React components call the
// matching `on<Name>` prop with the same detail.

/** `poruch:ready`: the first data is shown. */
export type PoruchReadyDetail = null;
/**
 * `poruch:error`: loading failed; the widget shows a message and a retry button. `error` is
 * core's `ApiError` for a failed call (`isApiError(error) && error.key`, the error catalogue key).
 */
export interface PoruchErrorDetail {
  error: unknown;
}
/** `poruch:select` (map): the point chosen. */
export type PoruchSelectDetail = MapSelectDetail;
/** `poruch:move` (map): the centre and zoom after a pan or zoom. */
export type PoruchMoveDetail = MapMoveDetail;
/** `poruch:search` (search): the filters of a search; maps of the same channel follow them. */
export type PoruchSearchDetail = SearchEventDetail;
/** `poruch:focus` (search): a result to show on the maps of the same channel. */
export type PoruchFocusDetail = FocusEventDetail;
/** `poruch:filters-change` (vacancies): the whole filter set after a change by the visitor. */
export type PoruchFiltersChangeDetail = VacancyFilters;
/** `poruch:report-sent` (report, service): a report was stored. */
export type PoruchReportSentDetail = ReportSentDetail;
/** `poruch:load` (service): the profile, once loaded. */
export type PoruchLoadDetail = ServiceProfile;
/** `poruch:back` (service): "Back to list" was pressed (cancelable). */
export interface PoruchBackDetail {
  serviceId: string;
}
/** `poruch:tab-change` (service): a tab link was followed (cancelable). */
export interface PoruchTabChangeDetail {
  serviceId: string;
  tab: ProfileTab;
}
/** `poruch:notice` (dashboard): a success message key (`success.vacancy_created`…). */
export interface PoruchNoticeDetail {
  key: string;
}
/** `poruch:service-created` (dashboard): the service the add form created. */
export type PoruchServiceCreatedDetail = Service;
/** `poruch:cancel` (dashboard): the add form was cancelled. */
export type PoruchCancelDetail = null;

/** Every `poruch:*` event with its `CustomEvent` type, as `addEventListener` sees it. */
export interface PoruchEventMap {
  'poruch:ready': CustomEvent<PoruchReadyDetail>;
  'poruch:error': CustomEvent<PoruchErrorDetail>;
  'poruch:select': CustomEvent<PoruchSelectDetail>;
  'poruch:move': CustomEvent<PoruchMoveDetail>;
  'poruch:search': CustomEvent<PoruchSearchDetail>;
  'poruch:focus': CustomEvent<PoruchFocusDetail>;
  'poruch:filters-change': CustomEvent<PoruchFiltersChangeDetail>;
  'poruch:report-sent': CustomEvent<PoruchReportSentDetail>;
  'poruch:load': CustomEvent<PoruchLoadDetail>;
  'poruch:back': CustomEvent<PoruchBackDetail>;
  'poruch:tab-change': CustomEvent<PoruchTabChangeDetail>;
  'poruch:notice': CustomEvent<PoruchNoticeDetail>;
  'poruch:service-created': CustomEvent<PoruchServiceCreatedDetail>;
  'poruch:cancel': CustomEvent<PoruchCancelDetail>;
}

declare global {
  // The events reach the element, its ancestors and the document: typed on all of them.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HTMLElementEventMap extends PoruchEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DocumentEventMap extends PoruchEventMap {}
}
