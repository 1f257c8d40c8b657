/** Ukrainian letters in Latin by the national transliteration (Cabinet of Ministers, 2010). */
const LETTERS: Readonly<Record<string, string>> = {
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
  '’': '',
  "'": '',
  ʼ: '',
  // Russian letters, so text typed in Russian still comes out readable.
  ы: 'y',
  э: 'e',
  ё: 'io',
  ъ: '',
};
/** At the start of a word these letters are written differently. */
const INITIAL: Readonly<Record<string, string>> = { є: 'ye', ї: 'yi', й: 'y', ю: 'yu', я: 'ya' };

/**
 * Ukrainian Cyrillic to Latin by the national transliteration: "Київ" → "Kyiv", "Запоріжжя" →
 * "Zaporizhzhia", "Згурівка" → "Zghurivka". Other characters are kept; the case of each letter
 * is kept (a capital turns into a capitalised group).
 */
export function transliterateUkrainian(text: string): string {
  let out = '';
  let previous = '';
  for (const char of text) {
    const lower = char.toLowerCase();
    const atWordStart = !/\p{L}/u.test(previous) && previous !== '’' && previous !== "'";
    let latin: string | undefined;
    if (lower === 'г' && previous.toLowerCase() === 'з') latin = 'gh';
    else latin = (atWordStart ? INITIAL[lower] : undefined) ?? LETTERS[lower];
    if (latin === undefined) out += char;
    else if (char !== lower && latin) out += latin[0]!.toUpperCase() + latin.slice(1);
    else out += latin;
    previous = char;
  }
  return out;
}
