import { missingTranslation, type LocaleCode, type Translate } from '@poruch/core/lite';
import type { Messages } from './messages.js';
import { commonMessages } from './messages/commonMessages.js';
import { errorMessages } from './messages/errorMessages.js';
import { widgetMessages } from './messages/widgetMessages.js';

/** Namespaces every widget has: buttons, the error catalogue and the widgets' own texts. */
const BASE: readonly Messages[] = [commonMessages, errorMessages, widgetMessages];

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
 *
 * @param extra The namespaces the widget needs beyond `common`, `error` and `widget`
 *   (see messages.ts). Defaults to none.
 */
export function createWidgetI18n(lang: LocaleCode, extra: readonly Messages[] = []): WidgetI18n {
  const messages: Record<string, unknown> = {};
  for (const bundle of [...BASE, ...extra]) Object.assign(messages, bundle[lang]);
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
