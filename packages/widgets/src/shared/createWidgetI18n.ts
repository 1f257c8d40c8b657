import { missingTranslation, type LocaleCode, type Translate } from '@poruch/core';
import {
  category as enCategory,
  common as enCommon,
  country_name as enCountry,
  error as enError,
  experience as enExperience,
  field as enField,
  flag as enFlag,
  home as enHome,
  map as enMap,
  report_form as enReportForm,
  report_reason as enReportReason,
  service_profile as enServiceProfile,
  success as enSuccess,
  vacancies as enVacancies,
  validation as enValidation,
  widget as enWidget,
} from '@poruch/core/locales/en_GB.json';
import {
  category as uaCategory,
  common as uaCommon,
  country_name as uaCountry,
  error as uaError,
  experience as uaExperience,
  field as uaField,
  flag as uaFlag,
  home as uaHome,
  map as uaMap,
  report_form as uaReportForm,
  report_reason as uaReportReason,
  service_profile as uaServiceProfile,
  success as uaSuccess,
  vacancies as uaVacancies,
  validation as uaValidation,
  widget as uaWidget,
} from '@poruch/core/locales/ua.json';

/**
 * The translation namespaces the widgets use, taken by name from core's locale files so rollup
 * leaves the site-only ones (admin, cookies, registration, …) out of the script-tag build.
 * A widget that needs another namespace adds it to both lists below.
 */
const MESSAGES: Record<LocaleCode, Record<string, unknown>> = {
  en_GB: {
    category: enCategory,
    common: enCommon,
    country_name: enCountry,
    error: enError,
    experience: enExperience,
    field: enField,
    flag: enFlag,
    home: enHome,
    map: enMap,
    report_form: enReportForm,
    report_reason: enReportReason,
    service_profile: enServiceProfile,
    success: enSuccess,
    vacancies: enVacancies,
    validation: enValidation,
    widget: enWidget,
  },
  ua: {
    category: uaCategory,
    common: uaCommon,
    country_name: uaCountry,
    error: uaError,
    experience: uaExperience,
    field: uaField,
    flag: uaFlag,
    home: uaHome,
    map: uaMap,
    report_form: uaReportForm,
    report_reason: uaReportReason,
    service_profile: uaServiceProfile,
    success: uaSuccess,
    vacancies: uaVacancies,
    validation: uaValidation,
    widget: uaWidget,
  },
};

/** One widget's translator: its language and a `t` with core's rules. */
export interface WidgetI18n {
  /** The active language. */
  readonly lang: LocaleCode;
  /**
   * Translates a dotted key (`map.label`) with `{name}` parameters, exactly as core's i18next
   * instances do; a missing key gives `Missing translation: <key>`.
   */
  readonly t: Translate;
}

const lookup = (messages: Record<string, unknown>, key: string): unknown =>
  key
    .split('.')
    .reduce<unknown>(
      (node, part) =>
        node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined,
      messages,
    );

/**
 * A per-element translator over core's ua and en_GB files. It is a few lines instead of an
 * i18next instance (about 13 KB gzip) because the vacancy board must fit in 40 KB; it keeps
 * i18next's semantics that the widgets rely on: dotted keys, single-brace interpolation, no
 * escaping (React escapes), no fallback language.
 */
export function createWidgetI18n(lang: LocaleCode): WidgetI18n {
  const messages = MESSAGES[lang];
  const t: Translate = (key, params) => {
    const value = lookup(messages, key);
    if (typeof value !== 'string' || value === '') return missingTranslation(key);
    if (!params) return value;
    return value.replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in params ? String(params[name]) : whole,
    );
  };
  return { lang, t };
}
