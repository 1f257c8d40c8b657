import type { LocaleCode } from '@poruch/core/lite';

/** Namespaces of core's locale files by name: `{ map: {…} }`. */
export type Namespaces = Readonly<Record<string, unknown>>;

/**
 * Some namespaces of core's locale files in each language: what a widget passes to WidgetShell.
 * The default language (ua) is inline; the others are a loader that imports that language's
 * chunk, so a page downloads and evaluates them only when a widget shows them.
 */
export type Messages = Readonly<Record<LocaleCode, Namespaces | (() => Promise<Namespaces>)>>;
