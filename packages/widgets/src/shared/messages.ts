import type { LocaleCode } from '@poruch/core';
import {
  category as en_category,
  common as en_common,
  country_name as en_countryName,
  error as en_error,
  experience as en_experience,
  field as en_field,
  flag as en_flag,
  home as en_home,
  map as en_map,
  report_form as en_reportForm,
  report_reason as en_reportReason,
  service_profile as en_serviceProfile,
  success as en_success,
  vacancies as en_vacancies,
  validation as en_validation,
  widget as en_widget,
} from '@poruch/core/locales/en_GB.json';
import {
  category as ua_category,
  common as ua_common,
  country_name as ua_countryName,
  error as ua_error,
  experience as ua_experience,
  field as ua_field,
  flag as ua_flag,
  home as ua_home,
  map as ua_map,
  report_form as ua_reportForm,
  report_reason as ua_reportReason,
  service_profile as ua_serviceProfile,
  success as ua_success,
  vacancies as ua_vacancies,
  validation as ua_validation,
  widget as ua_widget,
} from '@poruch/core/locales/ua.json';

/** Translations of some namespaces in both languages: what a widget passes to WidgetShell. */
export type Messages = Readonly<Record<LocaleCode, Readonly<Record<string, unknown>>>>;

// One bundle per namespace of core's locale files, imported by name so that rollup keeps only
// the namespaces a page's widgets use. `common`, `error` and `widget` are always there; a widget
// passes the others it needs: `<WidgetShell messages={[categoryMessages, mapMessages]}>`.

/** The `category.*` keys. */
export const categoryMessages: Messages = {
  ua: { category: ua_category },
  en_GB: { category: en_category },
};
/** The `common.*` keys. */
export const commonMessages: Messages = { ua: { common: ua_common }, en_GB: { common: en_common } };
/** The `country_name.*` keys. */
export const countryNameMessages: Messages = {
  ua: { country_name: ua_countryName },
  en_GB: { country_name: en_countryName },
};
/** The `error.*` keys. */
export const errorMessages: Messages = { ua: { error: ua_error }, en_GB: { error: en_error } };
/** The `experience.*` keys. */
export const experienceMessages: Messages = {
  ua: { experience: ua_experience },
  en_GB: { experience: en_experience },
};
/** The `field.*` keys. */
export const fieldMessages: Messages = { ua: { field: ua_field }, en_GB: { field: en_field } };
/** The `flag.*` keys. */
export const flagMessages: Messages = { ua: { flag: ua_flag }, en_GB: { flag: en_flag } };
/** The `home.*` keys. */
export const homeMessages: Messages = { ua: { home: ua_home }, en_GB: { home: en_home } };
/** The `map.*` keys. */
export const mapMessages: Messages = { ua: { map: ua_map }, en_GB: { map: en_map } };
/** The `report_form.*` keys. */
export const reportFormMessages: Messages = {
  ua: { report_form: ua_reportForm },
  en_GB: { report_form: en_reportForm },
};
/** The `report_reason.*` keys. */
export const reportReasonMessages: Messages = {
  ua: { report_reason: ua_reportReason },
  en_GB: { report_reason: en_reportReason },
};
/** The `service_profile.*` keys. */
export const serviceProfileMessages: Messages = {
  ua: { service_profile: ua_serviceProfile },
  en_GB: { service_profile: en_serviceProfile },
};
/** The `success.*` keys. */
export const successMessages: Messages = {
  ua: { success: ua_success },
  en_GB: { success: en_success },
};
/** The `vacancies.*` keys. */
export const vacanciesMessages: Messages = {
  ua: { vacancies: ua_vacancies },
  en_GB: { vacancies: en_vacancies },
};
/** The `validation.*` keys. */
export const validationMessages: Messages = {
  ua: { validation: ua_validation },
  en_GB: { validation: en_validation },
};
/** The `widget.*` keys. */
export const widgetMessages: Messages = { ua: { widget: ua_widget }, en_GB: { widget: en_widget } };
