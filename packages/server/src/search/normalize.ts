/**
 * Text normalisation for search: the Ukrainian national transliteration (KMU 2010) and the search
 * key that both the database (SQL `poruch_search_key`, migrations 0002_search.sql and 0003) and the query
 * side compute. The two must stay identical; `__tests__/normalize.test.ts` checks parity.
 */

const APOSTROPHES = /['’ʼ`‘ʹ]/g;

/** KMU 2010 (Cabinet of Ministers resolution no. 55), lower case, letters outside a word start. */
const KMU: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'h',
  ґ: 'g',
  д: 'd',
  е: 'e',
  є: 'ie',
  ж: 'zh',
  з: 'z',
  и: 'y',
  і: 'i',
  ї: 'i',
  й: 'i',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ь: '',
  ю: 'iu',
  я: 'ia',
  // Russian letters people type too.
  ы: 'y',
  э: 'e',
  ъ: '',
  ё: 'yo',
};
/** At the start of a word, KMU writes these differently. */
const KMU_WORD_START: Record<string, string> = { є: 'ye', ї: 'yi', й: 'y', ю: 'yu', я: 'ya' };

const isCyrillicLetter = (ch: string | undefined) => !!ch && /[\p{Script=Cyrillic}]/u.test(ch);

/**
 * Transliterates Ukrainian (and the common Russian letters) to Latin by the national KMU 2010
 * table: "Київ" → "Kyiv", "Згорани" → "Zghorany", "Знам'янка" → "Znamianka". Other characters
 * are kept; a capital letter's transliteration is capitalised ("Щ" → "Shch").
 */
export function transliterate(text: string): string {
  const src = text.replace(/(?<=\p{L})['’ʼ‘ʹ`](?=\p{L})/gu, '');
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    const lower = ch.toLowerCase();
    if (!(lower in KMU)) {
      out += ch;
      continue;
    }
    const prev = src[i - 1];
    let latin: string;
    if (lower === 'з' && src[i + 1]?.toLowerCase() === 'г') latin = 'zgh';
    else if (lower === 'г' && prev?.toLowerCase() === 'з') latin = '';
    else if (!isCyrillicLetter(prev) && lower in KMU_WORD_START) latin = KMU_WORD_START[lower]!;
    else latin = KMU[lower]!;
    if (latin && ch !== lower) {
      // All capitals ("КИЇВ") stay all capitals; a capital initial capitalises the first letter.
      const next = src[i + 1];
      const shouting = next !== undefined && isCyrillicLetter(next) && next === next.toUpperCase();
      latin = shouting ? latin.toUpperCase() : latin[0]!.toUpperCase() + latin.slice(1);
    }
    out += latin;
  }
  return out;
}

/**
 * The search transliteration: KMU with the word-start variants folded away (they fold to the same
 * key anyway), as single substitutions so the SQL can use translate/replace.
 */
const SEARCH_CYRILLIC: Record<string, string> = {
  ...KMU,
  и: 'i',
  ы: 'i',
  є: 'ie',
  ю: 'iu',
  я: 'ia',
  ё: 'io',
};

/** Latin letters unaccent maps that have no Unicode decomposition (geocoding folds them too). */
export const LATIN_SPECIAL: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŀ: 'l',
  ĸ: 'q',
  ŉ: "'n",
  // Not unaccent's: its rules for these differ between PostgreSQL versions, so the SQL maps
  // them to a space first (migration 0003).
  '©': ' ',
  '®': ' ',
  ª: ' ',
  º: ' ',
  '¼': ' ',
  '½': ' ',
  '¾': ' ',
  ŋ: 'n',
  ſ: 's',
  ƀ: 'b',
  ƈ: 'c',
  ƌ: 'd',
  ƒ: 'f',
  ƙ: 'k',
  ƚ: 'l',
  ƞ: 'n',
  ƥ: 'p',
  ƫ: 't',
  ƭ: 't',
  ƴ: 'y',
  ƶ: 'z',
  ȥ: 'z',
  ȴ: 'l',
  ȵ: 'n',
  ȶ: 't',
  ȷ: 'j',
  ȼ: 'c',
  ȿ: 's',
  ɀ: 'z',
  ɇ: 'e',
  ɉ: 'j',
  ɋ: 'q',
  ɍ: 'r',
  ɏ: 'y',
  ǥ: 'g',
  ǆ: 'dz',
  ǅ: 'dz',
  ǉ: 'lj',
  ǈ: 'lj',
  ǌ: 'nj',
  ǋ: 'nj',
  ǳ: 'dz',
  ǲ: 'dz',
  ĳ: 'ij',
};

/**
 * The search key of a text: one space between words, each word of [a-z0-9]. Cyrillic is
 * transliterated (KMU), case and accents are folded, and spelling variants are folded too:
 * y and j become i, w becomes v, a doubled letter becomes one. So "Київ", "Kyiv", "Kiev", "КИЕВ"
 * give "kiv", "kiv", "kiev", "kiev" (one edit apart), "Одеса"/"Odessa" both give "odesa",
 * "Юлія"/"Yulia"/"Julia" all give "iulia".
 */
export function searchKey(text: string): string {
  let s = text.toLowerCase().replace(APOSTROPHES, '').replace(/зг/g, 'zgh');
  s = s.replace(/[а-яіїєґёыэъ]/g, (ch) => SEARCH_CYRILLIC[ch] ?? ch);
  s = s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^ -~]/g, (ch) => LATIN_SPECIAL[ch] ?? ch);
  return s
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/[yjw]/g, (ch) => (ch === 'w' ? 'v' : 'i'))
    .replace(/([a-z])\1+/g, '$1')
    .trim();
}

/** Words a query may leave out: "і", "та", "and", "the"… (as search keys). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  [
    'і',
    'й',
    'та',
    'в',
    'у',
    'на',
    'з',
    'із',
    'до',
    'для',
    'по',
    'від',
    'и',
    'а',
    'and',
    'the',
    'of',
    'in',
    'for',
    'a',
    'an',
    'to',
    'at',
    'on',
    'with',
    '&',
  ].map(searchKey),
);

/**
 * The words of a query, as search keys: distinct, at most `max`, stop words dropped unless the
 * query has nothing else.
 */
export function queryTokens(text: string, max = 8): string[] {
  const all = [...new Set(searchKey(text).split(' ').filter(Boolean))];
  const meaningful = all.filter((t) => !STOP_WORDS.has(t));
  return (meaningful.length ? meaningful : all).slice(0, max);
}
