import type { FieldError } from '../errors.js';

/** Anything that translates a key with parameters: an i18next `t`, or a test double. */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

/**
 * A translation key made from a text: runs of white space become one underscore
 * (docs/product.md, Languages). Case is kept.
 *
 * @example toKey('login for business') // 'login_for_business'
 */
export const toKey = (text: string): string => text.trim().replace(/\s+/g, '_');

/**
 * The error-catalogue key of an HTTP status text: lower-cased, spaces turned into underscores
 * (docs/product.md, Errors), e.g. `Not Found` → `not_found`. Empty when the text is empty.
 */
export const statusTextKey = (statusText: string): string => toKey(statusText.toLowerCase());

/** Translation key of a field's label: `field.<name>`. */
export const fieldLabelKey = (name: string): string => `field.${name}`;

/**
 * The message of one broken validation rule, in the active locale. The `name` parameter is
 * the field's name (`firstName`); it is replaced by the field's translated label
 * (`field.firstName`) when there is one.
 */
export function translateFieldError(t: Translate, error: FieldError): string {
  const params: Record<string, unknown> = { ...error.params };
  if (typeof params.name === 'string' && params.name) {
    const labelKey = fieldLabelKey(params.name);
    const label = t(labelKey);
    if (label && label !== labelKey && !label.startsWith(MISSING_TRANSLATION_PREFIX))
      params.name = label;
  }
  return t(error.key, params);
}

/** What a missing translation shows before its key. */
export const MISSING_TRANSLATION_PREFIX = 'Missing translation: ';

/** The text shown for a key without a translation: `Missing translation: <key>`. */
export const missingTranslation = (key: string): string => `${MISSING_TRANSLATION_PREFIX}${key}`;
