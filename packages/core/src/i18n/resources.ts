import en_GB from './locales/en_GB.json' with { type: 'json' };
import ua from './locales/ua.json' with { type: 'json' };
import type { LocaleCode } from './locales.js';

/** The shape of one locale's translations: the Ukrainian file is the reference. */
export type TranslationResource = typeof ua;

/**
 * The translations of every interface language, nested by the dots of their keys
 * (`error.not_found` is `error` → `not_found`). Both locales have exactly the same keys.
 */
export const TRANSLATIONS: Readonly<Record<LocaleCode, TranslationResource>> = { ua, en_GB };

/** The i18next namespace holding them. */
export { I18N_NAMESPACE } from './instance.js';
