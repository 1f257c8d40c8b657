import type { LocaleCode } from '@poruch/core/lite';
import type { Namespaces } from './types.js';

/**
 * Each language's namespaces by name, whichever chunk brought them (an element's chunk brings all
 * of its own) or the host app gave (provideWidgetMessages). Page-wide. This module imports no
 * translation file, so an app can give its messages without loading the widgets' own.
 */
export const arrived = new Map<LocaleCode, Record<string, unknown>>();

/**
 * Gives the widgets every namespace of `lang` that a host app has loaded already (the site loads
 * its language's whole file at start-up), so a widget on that page renders in it at once and
 * imports none of its own chunks for it. Namespaces already here are kept.
 */
export function provideWidgetMessages(lang: LocaleCode, namespaces: Namespaces): void {
  arrived.set(lang, { ...namespaces, ...arrived.get(lang) });
}
