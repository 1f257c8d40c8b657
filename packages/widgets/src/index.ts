export { defineElement } from './defineElement.js';
export { emit, EVENT_PREFIX } from './emit.js';
export { warnOnce } from './warnOnce.js';
export * from './shared/index.js';
export { useResource } from './useResource.js';
export type { Resource } from './useResource.js';
export { VacancyBoard as PoruchVacancies, VACANCY_PARTS } from './vacancies/VacancyBoard.js';
export type { VacancyBoardProps as PoruchVacanciesProps } from './vacancies/VacancyBoard.js';
export { createVacancyBoard } from './vacancies/createVacancyBoard.js';
export type { VacancyBoardState, VacancyFilters } from './vacancies/createVacancyBoard.js';
export { PoruchReport, REPORT_PARTS } from './report/PoruchReport.js';
export type { PoruchReportProps } from './report/PoruchReport.js';
export type { ReportSentDetail } from './report/ReportForm.js';
export { PoruchService, SERVICE_PARTS, SERVICE_SHADOW_CSS } from './service/PoruchService.js';
export type { PoruchServiceProps } from './service/PoruchService.js';
export { PoruchDashboard, DASHBOARD_PARTS } from './dashboard/PoruchDashboard.js';
export type { PoruchDashboardProps, DashboardView } from './dashboard/PoruchDashboard.js';
export type { ConfirmFn } from './dashboard/options.js';
export * from './dashboard/serviceFormModel.js';
export * from './dashboard/duplicatesModel.js';
export { PoruchMap } from './map/PoruchMap.js';
export type { MapProps as PoruchMapProps } from './map/PoruchMap.js';
export type { MapProps, MapSelectDetail } from './map/PoruchMap.js';
export { MAP_PARTS } from './map/mapStyles.js';
export {
  BASE_LAYER_SEA,
  BASE_LAYER_STYLE,
  baseCountries,
  baseCountryFeatures,
} from './map/baseLayer.js';
export type { BaseCountries, BaseCountry } from './map/baseLayer.js';
export type { LatLng, ServiceFilters, SearchEventDetail, FocusEventDetail } from './map/filters.js';
export { PoruchSearch } from './search/PoruchSearch.js';
export type { SearchProps, SearchProps as PoruchSearchProps } from './search/PoruchSearch.js';
export { SEARCH_PARTS } from './search/searchStyles.js';
export * from './search/searchModel.js';
export { useSearchAsYouType, useSettled } from './search/useSearchAsYouType.js';
export { AddressCombobox } from './ui/AddressCombobox.js';
export { AlertButton } from './ui/AlertButton.js';
export { AlertDialog } from './ui/AlertDialog.js';
export { ALERT_DIALOG_CSS } from './ui/alertDialogStyles.js';
export type { AlertDialogProps, AlertPushOffer } from './ui/AlertDialog.js';
export type { AddressComboboxProps } from './ui/AddressCombobox.js';
export { CategoryOptions } from './ui/CategoryOptions.js';
export type { CategoryOptionsProps } from './ui/CategoryOptions.js';
export { CountryOptions } from './ui/CountryOptions.js';
export type { CountryOptionsProps } from './ui/CountryOptions.js';
export type * from './types/events.js';
export type * from './types/elements.js';
