/** Latin letters that Unicode decomposition does not split into a base letter and a mark. */
const SPECIAL: Readonly<Record<string, string>> = {
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
  ħ: 'h',
  ŀ: 'l',
};

/**
 * The form place names are compared in: lower case, accents removed, apostrophes dropped and
 * every other run of punctuation turned into one space. "Łódź" → "lodz", "Rzeszów" →
 * "rzeszow", "Frankfurt am Main" → "frankfurt am main", "Рейк’явік" → "рейкявік".
 */
export function normalizePlaceName(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[łøđðþßæœıħŀ]/g, (c) => SPECIAL[c]!)
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
