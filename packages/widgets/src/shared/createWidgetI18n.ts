import { missingTranslation, type LocaleCode, type Translate } from '@poruch/core/lite';
import { common, error, widget } from '@poruch/core/locales/ua.json';
import type { Messages, Namespaces } from './messages.js';

/** `common`, `error` and `widget`, which every widget has; English in one chunk. */
const BASE: Messages = {
  ua: { common, error, widget },
  en_GB: () => import('./messages/en_GB/base.js'),
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

type Loader = () => Promise<Namespaces>;

const NONE: readonly Messages[] = [];
// Page-wide, so that two widgets (or a language switched back) import a chunk once, and a
// widget whose language is already here renders at once.
const loaded = new Map<Loader, Namespaces>();
const pending = new Map<Loader, Promise<Namespaces>>();
const built = new WeakMap<readonly Messages[], Map<LocaleCode, WidgetI18n>>();

function load(loader: Messages[LocaleCode]): Promise<Namespaces> {
  if (typeof loader !== 'function') return Promise.resolve(loader);
  let promise = pending.get(loader);
  if (!promise) {
    promise = loader().then(
      (namespaces) => {
        loaded.set(loader, namespaces);
        return namespaces;
      },
      (error: unknown) => {
        // A failed chunk (network) is tried again by the next call.
        pending.delete(loader);
        throw error;
      },
    );
    pending.set(loader, promise);
  }
  return promise;
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
 * The translator of `lang` over `extra` (and `common`, `error`, `widget`) when all their chunks
 * have been loaded ({@link loadWidgetI18n}), else undefined. The same list and language give the
 * same object.
 */
export function loadedWidgetI18n(
  lang: LocaleCode,
  extra: readonly Messages[] = NONE,
): WidgetI18n | undefined {
  const cached = built.get(extra)?.get(lang);
  if (cached) return cached;
  const messages: Record<string, unknown> = {};
  for (const bundle of [BASE, ...extra]) {
    const entry = bundle[lang];
    const namespaces = typeof entry === 'function' ? loaded.get(entry) : entry;
    if (!namespaces) return undefined;
    Object.assign(messages, namespaces);
  }
  const t: Translate = (key, params) => {
    const value = lookup(messages, key);
    if (typeof value !== 'string' || value === '') return missingTranslation(key);
    if (!params) return value;
    return value.replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in params ? String(params[name]) : whole,
    );
  };
  const i18n = { lang, t };
  const byLang = built.get(extra) ?? new Map<LocaleCode, WidgetI18n>();
  built.set(extra, byLang.set(lang, i18n));
  return i18n;
}

/**
 * A per-element translator over core's ua and en_GB files, loading `lang`'s chunks of the
 * namespaces when it is not the inline default (ua). It is a few lines instead of an i18next instance (about 13 KB gzip) because the
 * vacancy board must fit in 40 KB; it keeps i18next's semantics that the widgets rely on:
 * dotted keys, single-brace interpolation, no escaping (React escapes), no fallback language.
 *
 * @param extra The namespaces the widget needs beyond `common`, `error` and `widget`
 *   (see messages.ts), as a module-level constant. Defaults to none.
 */
export async function loadWidgetI18n(
  lang: LocaleCode,
  extra: readonly Messages[] = NONE,
): Promise<WidgetI18n> {
  await Promise.all([BASE, ...extra].map((bundle) => load(bundle[lang])));
  return loadedWidgetI18n(lang, extra)!;
}
