import { LATIN_SPECIAL } from '../search/normalize.js';

/**
 * The form place names are compared in: lower case, accents removed, apostrophes dropped and
 * every other run of punctuation turned into one space. "Łódź" → "lodz", "Rzeszów" →
 * "rzeszow", "Frankfurt am Main" → "frankfurt am main", "Рейк’явік" → "рейкявік".
 */
export function normalizePlaceName(text: string): string {
  return (
    text
      .toLowerCase()
      // Latin letters with no Unicode decomposition (ł, ø, ß…), as search folds them.
      .replace(/[^ -~]/g, (c) => LATIN_SPECIAL[c] ?? c)
      .normalize('NFKD')
      // Cyrillic й and ї decompose too; put them back so Ukrainian input stays intact.
      .replace(/и\u0306/g, 'й')
      .replace(/і\u0308/g, 'ї')
      .replace(/\p{M}/gu, '')
      .replace(/['’ʼ`]/g, '')
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()
  );
}

/** True when the text holds Cyrillic letters. */
export const hasCyrillic = (text: string): boolean => /\p{Script=Cyrillic}/u.test(text);
