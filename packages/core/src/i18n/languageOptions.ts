import type { LanguageOption } from '../schemas/options.js';

/**
 * The language switcher's options: Ukrainian with the flag of UA, British English
 * with the flag of GB. Each name is written in its own language.
 */
export const LANGUAGE_OPTIONS: readonly LanguageOption[] = [
  { name: 'Українська', code: 'ua', country: 'UA' },
  { name: 'English', code: 'en_GB', country: 'GB' },
];
