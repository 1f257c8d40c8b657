import type { Random } from './random.js';
import {
  BRANDS_LATIN,
  BRANDS_UA,
  FIRST_NAMES,
  LAST_NAMES,
  PERSON_KINDS,
  type CategoryVocabulary,
} from './vocabulary.js';

/** Indexes of FIRST_NAMES below this are women's names (for «Засновниця» / «Засновник»). */
const FEMALE_NAMES = 12;

/** The words a generated service is named with: its kind of business, a brand and a person. */
export interface ServiceNaming {
  kindUa: string;
  kindEn: string;
  /** A person can run this kind of business under their own name (a tutor, a hairdresser). */
  personal: boolean;
  brandUa: string;
  brandLatin: string;
  firstUa: string;
  firstEn: string;
  lastUa: string;
  lastEn: string;
  female: boolean;
}

/**
 * Draws the naming of a service of a category, in this order: the kind, the brand, the first
 * name and the surname. The demo catalogue and the synthetic data both name their services so.
 */
export function drawNaming(random: Random, words: CategoryVocabulary): ServiceNaming {
  const kind = random.int(0, words.kindsUa.length - 1);
  const brand = random.int(0, BRANDS_UA.length - 1);
  const first = random.int(0, FIRST_NAMES.length - 1);
  const [firstUa, firstEn] = FIRST_NAMES[first]!;
  const [lastUa, lastEn] = random.pick(LAST_NAMES);
  const kindUa = words.kindsUa[kind]!;
  return {
    kindUa,
    kindEn: words.kindsEn[kind]!,
    personal: PERSON_KINDS.has(kindUa),
    brandUa: BRANDS_UA[brand]!,
    brandLatin: BRANDS_LATIN[brand]!,
    firstUa,
    firstEn,
    lastUa,
    lastEn,
    female: first < FEMALE_NAMES,
  };
}
