import {
  DEFAULT_LOCALE,
  missingTranslation,
  type LocaleCode,
  type Translate,
} from '@poruch/core/lite';
import { common, error, widget } from '@poruch/core/locales/ua.json';
import type { Messages, Namespaces } from './messages.js';
import { arrived } from './messages/arrived.js';

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
// widget whose language is already here renders at once (`arrived`: see messages/arrived.ts).
const loaded = new Map<Loader, Namespaces>();
const pending = new Map<Loader, Promise<Namespaces>>();
const built = new WeakMap<readonly Messages[], Map<LocaleCode, WidgetI18n>>();

function load(loader: Loader, lang: LocaleCode): Promise<Namespaces> {
  let promise = pending.get(loader);
  if (!promise) {
    promise = loader().then(
      (namespaces) => {
        loaded.set(loader, namespaces);
        const byName = arrived.get(lang) ?? {};
        arrived.set(lang, Object.assign(byName, namespaces));
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

/** `bundle`'s namespaces in `lang` when they are here (inline, or brought by any chunk). */
function available(bundle: Messages, lang: LocaleCode): Namespaces | undefined {
  const entry = bundle[lang];
  if (typeof entry !== 'function') return entry;
  const own = loaded.get(entry);
  if (own) return own;
  // The names are those of the inline default.
  const inline = bundle[DEFAULT_LOCALE];
  const got = arrived.get(lang);
  if (typeof inline === 'function' || !got) return undefined;
  const names = Object.keys(inline);
  return names.every((name) => name in got)
    ? Object.fromEntries(names.map((name) => [name, got[name]]))
    : undefined;
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
    const namespaces = available(bundle, lang);
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
 * namespaces when it is not the inline default (ua). It is a few lines instead of an i18next
 * instance (about 13 KB gzip) because the vacancy board must fit in 40 KB; it keeps i18next's
 * semantics that the widgets rely on: dotted keys, single-brace interpolation, no escaping (React
 * escapes), no fallback language.
 *
 * @param extra The namespaces the widget needs beyond `common`, `error` and `widget`
 *   (see messages.ts), as a module-level constant. Defaults to none.
 * @param chunk A chunk with all of them in `lang` (an element's English, english.ts): imported
 *   instead of one chunk per namespace. A namespace it lacks still comes from its own chunk.
 */
export async function loadWidgetI18n(
  lang: LocaleCode,
  extra: readonly Messages[] = NONE,
  chunk?: Loader,
): Promise<WidgetI18n> {
  const bundles = [BASE, ...extra];
  if (chunk && bundles.some((bundle) => !available(bundle, lang))) await load(chunk, lang);
  await Promise.all(
    bundles.map((bundle) => {
      const entry = bundle[lang];
      return available(bundle, lang) || typeof entry !== 'function' ? undefined : load(entry, lang);
    }),
  );
  return loadedWidgetI18n(lang, extra)!;
}
