/**
 * The national transliteration (KMU 2010) of Ukrainian place names. One implementation serves
 * search and geocoding: src/search/normalize.ts ("Київ" → "Kyiv", "Згурівка" → "Zghurivka").
 */
export { transliterate as transliterateUkrainian } from '../search/normalize.js';
