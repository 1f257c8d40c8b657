import type { CategoryFilter } from '@poruch/core';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/types.js';
import { followSearchChanges, type Change } from './cache.js';
import { buildTextQuery, type Candidate, type TextQuery, type TypoWord } from './searchQuery.js';
import { summarySelect, type SummaryRow } from './summary.js';

/**
 * The word index: every publicly visible service's search document (migration 0002) and filter
 * columns in memory, so a text query's matches are found and ranked without a scan (a prefix of
 * two letters matches tens of thousands of documents, too many for SQL to rank as you type).
 * The database stays the source of truth:
 *
 * - It is built from the database (in chunks, in the background: at server start, or on the
 *   first search) and kept in step by the search notifications the result cache listens to
 *   (cache.ts, migration 0018): the services a write changed are read again, in one query, before
 *   the next search answers from the index. A notification without a payload (category terms,
 *   bulk loads, large statements, a lost listener) makes it build again.
 * - It is used only while the cache listens (so it sees every write) on the primary; while it is
 *   building, after an error, on a read replica or with PORUCH_SEARCH_INDEX=off, searches take the
 *   SQL path, which gives the same answers.
 *
 * Matching is the SQL's `search_doc @@ to_tsquery('simple', match)` (every query word as a prefix
 * or one of its corrections); ranking ports ts_rank (IndexView.rank); the page's final order is
 * still decided by SQL over the best candidates (indexedPage.ts).
 */

/** ts_rank's default weights, by weight class D, C, B, A. */
const WEIGHTS = [0.1, 0.2, 0.4, 1.0].map(Math.fround);
/** The sum of 1/i² (ts_rank's normaliser). */
const PI2_6 = 1.64493406685;
/** Services read per statement while building. */
const CHUNK = 5000;
/** Pause before a failed build is tried again. */
const RETRY_MS = 10_000;
/** The prefix table holds the prefixes of this many letters and fewer. */
const TABLE_PREFIX = 3;
/** Summaries kept unpacked, the last ones a page showed (a page's rows recur as users type). */
const UNPACKED = 2048;
/** Rebuild once this share of the document slots is dead or changed since the build. */
const REBUILD_SHARE = 0.25;

const FLAG_ONLINE = 1;
const FLAG_VACANCY = 2;
const FLAG_MAP = 4;
const FLAG_DEMOTED = 8;
/** Approved but lapsed: not public, but its words count for corrections (search_words.services_n). */
const FLAG_LAPSED = 16;
/** The slot's summary is packed in UTF-8 (it has a character windows-1251 lacks). */
const FLAG_UTF8 = 32;

let enabled = process.env.PORUCH_SEARCH_INDEX !== 'off';
/** Turns the word index off (searches take the SQL path) or back on (benchmarks and tests). */
export function setWordIndex(on: boolean): void {
  enabled = on;
}

/** The filters the index applies (the others fall back to SQL). */
export interface IndexFilter {
  country?: string;
  category: CategoryFilter;
  online?: boolean;
  hasVacancy?: boolean;
  onMap?: boolean;
}

/** A row of a service as the index reads it: its summary, document, filters and order. */
interface Row {
  id: string;
  doc: string;
  country: string;
  category: string | null;
  flags: number;
  created: number;
  summary: Omit<SummaryRow, 'distanceKm'>;
}

/**
 * The lexemes of a document: word ids in word order, and their positions (pos | weight << 14),
 * in 16 bits each when the word ids and the length fit (positions always do), else in 32.
 */
type Lexemes = Uint16Array | Int32Array;
// Layout of Lexemes: [n, word ids (n), position starts (n + 1), positions...].

/**
 * Summaries are kept packed: a service's summary (but its id) as the JSON of its values, dates as
 * milliseconds, in windows-1251 (Ukrainian and ASCII in one byte a character; else in UTF-8) held
 * as a one-byte (Latin-1) string; a page unpacks its rows. Objects of two-byte strings and Dates
 * took twice the memory.
 */
const CP1251_CHARS = new TextDecoder('windows-1251').decode(
  Uint8Array.from({ length: 256 }, (_, i) => i),
);
/** Per windows-1251 byte: its UTF-16 code unit. */
const CP1251_CHAR = Uint16Array.from(CP1251_CHARS, (c) => c.charCodeAt(0));
/** Per UTF-16 code unit from 0x80: its windows-1251 byte, 0 when it has none. */
const CP1251_BYTE = new Uint8Array(0x10000);
for (let b = 0x80; b < 256; b++) CP1251_BYTE[CP1251_CHAR[b]!] = b;
const DATE_KEYS = new Set(['createdAt', 'confirmedAt']);

/** `text` in windows-1251 as a Latin-1 string, or null when it has a character outside it. */
function toCp1251(text: string): string | null {
  const out = Buffer.allocUnsafe(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const b = c < 0x80 ? c : CP1251_BYTE[c]!;
    if (c >= 0x80 && !b) return null;
    out[i] = b;
  }
  return out.toString('latin1');
}

/** The text of a string toCp1251 made (through UTF-16: faster than a TextDecoder of it). */
function fromCp1251(packed: string): string {
  const out = Buffer.allocUnsafe(packed.length * 2);
  for (let i = 0; i < packed.length; i++) {
    const c = CP1251_CHAR[packed.charCodeAt(i)]!;
    out[2 * i] = c & 0xff;
    out[2 * i + 1] = c >> 8;
  }
  return out.toString('utf16le');
}

/** A query item of ts_rank: a word, whole or as a prefix. */
interface Item {
  word: string;
  prefix: boolean;
}

/**
 * The services a short prefix matches, in the order of a search for it by relevance (see
 * IndexData.prefixTable): the build's, and those added since, each before a place in them.
 */
interface PrefixList {
  built: Int32Array;
  /** Slots added since the build: by `at` (the index in `built` it goes before), then order. */
  added: { slot: number; rank: number; at: number }[];
}

/** One built index: documents in slots, a sorted dictionary, postings. */
class IndexData {
  // Documents.
  ids: string[] = [];
  slotOf = new Map<string, number>();
  alive = new Uint8Array(1024);
  country = new Uint16Array(1024);
  category = new Uint16Array(1024);
  flags = new Uint8Array(1024);
  created = new Float64Array(1024);
  /** Every slot's lexemes (see Lexemes), one after another: slot s's from lexAt[s] to lexAt[s + 1]. */
  lexData: Lexemes = new Uint16Array(1 << 16);
  lexAt = new Int32Array(1025);
  /** What a page shows of each slot's service, packed (see toCp1251, `summaryOf`). */
  summary: (string | undefined)[] = [];
  /** The fields of a summary but its id, in the statement's order. */
  summaryKeys: string[] | null = null;
  /** The last UNPACKED summaries unpacked, by slot (the oldest first). */
  unpacked = new Map<number, Omit<SummaryRow, 'distanceKm'>>();
  /** The words of approved services that are not public (lapsed), by id. */
  lapsed = new Map<string, Int32Array>();
  live = 0;
  /** Slots written since the build (changed or dead): a rebuild is due when they are many. */
  churn = 0;
  countries: string[] = [];
  countryCode = new Map<string, number>();
  categories: string[] = [''];
  categoryCode = new Map<string, number>();
  // Dictionary.
  words: string[] = [];
  wordId = new Map<string, number>();
  sorted: string[] = [];
  sortedIds: number[] = [];
  /** Per word: the approved services that have it (search_words.services_n). */
  docsOf = new Int32Array(1024);
  /** Trigrams of the words typo corrections may be (pg_trgm's), to their word ids; built on use. */
  trigramWords: Map<string, number[]> | null = null;
  /** Per word: its number of distinct trigrams. */
  trigramCount = new Uint8Array(1024);
  /** Scratch of one typo lookup: common trigrams per word. */
  common = new Int32Array(0);
  /** Postings of the build (slot ascending) and each one's ts_rank term. */
  postStart = new Int32Array(1);
  postSlots = new Int32Array(0);
  postTerms = new Float32Array(0);
  /** Postings added since the build. */
  extra = new Map<number, { slots: number[]; terms: number[] }>();
  /**
   * The prefix table: for each prefix of 1 to TABLE_PREFIX letters of the dictionary's words, the
   * live and dead slots whose documents have a word it starts, in the final order of a search of
   * that prefix alone by relevance (demoted last, rank, newest, id). Such a search has no
   * corrections (allowedEdits), and its rank depends only on the document and the prefix; so a
   * page is the first slots that pass the filters, and no match is ranked per search. A new slot
   * is placed among them (`added`); a dead one is skipped.
   */
  prefixTable = new Map<string, PrefixList>();
  // Scratch space of one query.
  mark = new Uint8Array(0);
  acc = [new Float32Array(0), new Float32Array(0), new Float32Array(0)];

  get slots(): number {
    return this.ids.length;
  }

  private grow(): void {
    const n = this.alive.length * 2;
    const copy = <T extends Uint8Array | Uint16Array | Float64Array>(a: T, b: T): T => {
      b.set(a);
      return b;
    };
    this.alive = copy(this.alive, new Uint8Array(n));
    this.country = copy(this.country, new Uint16Array(n));
    this.category = copy(this.category, new Uint16Array(n));
    this.flags = copy(this.flags, new Uint8Array(n));
    this.created = copy(this.created, new Float64Array(n));
    const at = new Int32Array(n + 1);
    at.set(this.lexAt);
    this.lexAt = at;
  }

  /** A live slot's lexemes (a view of lexData). */
  lexOf(slot: number): Lexemes | undefined {
    if (!this.alive[slot]) return undefined;
    return this.lexData.subarray(this.lexAt[slot]!, this.lexAt[slot + 1]!);
  }

  /** Room in lexData for `size` more (doubling while building, then by an eighth), in 32 bits if `wide`. */
  private lexRoom(slot: number, size: number, wide: boolean, building: boolean): Lexemes {
    const used = this.lexAt[slot]!;
    let data = this.lexData;
    if (used + size > data.length) {
      const grown = Math.max(
        used + size,
        data.length + (building ? data.length : data.length >> 3),
      );
      const copy = data instanceof Uint16Array ? new Uint16Array(grown) : new Int32Array(grown);
      copy.set(data.subarray(0, used));
      data = copy;
    }
    if (wide && data instanceof Uint16Array) data = Int32Array.from(data);
    this.lexData = data;
    return data.subarray(used, used + size);
  }

  private code(list: string[], codes: Map<string, number>, value: string): number {
    let c = codes.get(value);
    if (c === undefined) {
      c = list.length;
      list.push(value);
      codes.set(value, c);
    }
    return c;
  }

  /** The id of a word, added to the dictionary (in order) when new. */
  private word(w: string, building: boolean): number {
    let id = this.wordId.get(w);
    if (id !== undefined) return id;
    id = this.words.length;
    this.words.push(w);
    this.wordId.set(w, id);
    if (id === this.docsOf.length) {
      const docs = new Int32Array(id * 2);
      docs.set(this.docsOf);
      this.docsOf = docs;
      const tri = new Uint8Array(id * 2);
      tri.set(this.trigramCount);
      this.trigramCount = tri;
    }
    if (this.trigramWords) this.addTrigrams(id);
    if (!building) {
      const at = lowerBound(this.sorted, w);
      this.sorted.splice(at, 0, w);
      this.sortedIds.splice(at, 0, id);
    }
    return id;
  }

  /** Adds a document in a new slot (its postings go to `extra` unless building). */
  add(row: Row, building: boolean): void {
    if (row.flags & FLAG_LAPSED) {
      const ids = Int32Array.from(parseDoc(row.doc), (p) => this.word(p.word, building));
      for (const w of ids) this.docsOf[w]!++;
      this.lapsed.set(row.id, ids);
      return;
    }
    const slot = this.ids.length;
    if (slot === this.alive.length) this.grow();
    this.ids.push(row.id);
    this.slotOf.set(row.id, slot);
    this.alive[slot] = 1;
    this.live++;
    this.country[slot] = this.code(this.countries, this.countryCode, row.country);
    this.category[slot] =
      row.category === null ? 0 : this.code(this.categories, this.categoryCode, row.category);
    this.flags[slot] = row.flags;
    this.created[slot] = row.created;
    this.summary.push(this.pack(slot, row.summary));
    const parsed = parseDoc(row.doc);
    const n = parsed.length;
    let total = 0;
    for (const p of parsed) total += p.pos.length;
    const ids = parsed.map((p) => this.word(p.word, building));
    const size = 1 + n + n + 1 + total;
    const lex = this.lexRoom(slot, size, size > 0xffff || ids.some((id) => id > 0xffff), building);
    lex[0] = n;
    let at = 1 + n + n + 1;
    for (let i = 0; i < n; i++) {
      const { pos } = parsed[i]!;
      const id = ids[i]!;
      this.docsOf[id]!++;
      lex[1 + i] = id;
      lex[1 + n + i] = at;
      for (const p of pos) lex[at++] = p;
      if (!building) {
        let e = this.extra.get(id);
        if (!e) this.extra.set(id, (e = { slots: [], terms: [] }));
        e.slots.push(slot);
        e.terms.push(orTerm(pos));
      }
    }
    lex[1 + n + n] = at;
    this.lexAt[slot + 1] = this.lexAt[slot]! + size;
    if (!building) this.addToPrefixTable(slot);
  }

  /** Marks a service's slot dead (it changed or is no longer public). */
  remove(id: string): void {
    const lapsed = this.lapsed.get(id);
    if (lapsed) {
      for (const w of lapsed) this.docsOf[w]!--;
      this.lapsed.delete(id);
    }
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const lex = this.lexOf(slot)!;
    for (let i = 0; i < lex[0]!; i++) this.docsOf[lex[1 + i]!]!--;
    this.summary[slot] = undefined;
    this.unpacked.delete(slot);
    this.slotOf.delete(id);
    this.alive[slot] = 0;
    this.live--;
    this.churn++;
  }

  /** A used mark: the count a page shows. */
  setUsed(id: string, count: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined || this.summary[slot] === undefined) return;
    this.summary[slot] = this.pack(slot, { ...this.summaryOf(slot), usedCount: count });
    this.unpacked.delete(slot);
  }

  /** A slot's summary packed (see toCp1251); its flags say how. */
  private pack(slot: number, row: Omit<SummaryRow, 'distanceKm'>): string {
    const fields = row as unknown as Record<string, unknown>;
    this.summaryKeys ??= Object.keys(fields).filter((k) => k !== 'id');
    const json = JSON.stringify(
      this.summaryKeys.map((k) => {
        const v = fields[k];
        return v instanceof Date ? v.getTime() : v;
      }),
    );
    const packed = toCp1251(json);
    if (packed !== null) {
      this.flags[slot]! &= ~FLAG_UTF8;
      return packed;
    }
    this.flags[slot]! |= FLAG_UTF8;
    return Buffer.from(json, 'utf8').toString('latin1');
  }

  /** What a page shows of a live slot's service (fields in the statement's order; not to change). */
  summaryOf(slot: number): Omit<SummaryRow, 'distanceKm'> {
    let row = this.unpacked.get(slot);
    if (!row) {
      row = this.unpack(slot);
      if (this.unpacked.size >= UNPACKED) this.unpacked.delete(this.unpacked.keys().next().value!);
      this.unpacked.set(slot, row);
    }
    return row;
  }

  /** A slot's summary unpacked. */
  private unpack(slot: number): Omit<SummaryRow, 'distanceKm'> {
    const packed = this.summary[slot]!;
    const json =
      this.flags[slot]! & FLAG_UTF8
        ? Buffer.from(packed, 'latin1').toString('utf8')
        : fromCp1251(packed);
    const values = JSON.parse(json) as unknown[];
    const keys = this.summaryKeys!;
    const row: Record<string, unknown> = { id: this.ids[slot] };
    for (let i = 0; i < keys.length; i++) {
      const v = values[i];
      row[keys[i]!] = typeof v === 'number' && DATE_KEYS.has(keys[i]!) ? new Date(v) : v;
    }
    return row as unknown as Omit<SummaryRow, 'distanceKm'>;
  }

  /** Adds word `id` to the trigram lists when a correction may be it (a search word). */
  private addTrigrams(id: number): void {
    const word = this.words[id]!;
    if (!searchWord(word)) return;
    const tri = trigrams(word);
    this.trigramCount[id] = tri.length;
    for (const g of tri) {
      const list = this.trigramWords!.get(g);
      if (list) list.push(id);
      else this.trigramWords!.set(g, [id]);
    }
  }

  /**
   * The typo candidates of `w` (see WordSource, searchQuery.ts): words of approved services
   * (docsOf), search words, within the length range, pg_trgm's similarity at least `w.th`, the
   * best `max` by (similarity desc, word); then the transpositions `swaps` that are such words.
   */
  candidates(w: TypoWord, swaps: string[], max: number): Candidate[] {
    if (!this.trigramWords) {
      this.trigramWords = new Map();
      for (let id = 0; id < this.words.length; id++) this.addTrigrams(id);
    }
    if (this.common.length < this.words.length)
      this.common = new Int32Array(Math.max(this.words.length * 2, 1024));
    const common = this.common;
    const touched: number[] = [];
    const mine = trigrams(w.t);
    for (const g of mine) {
      const list = this.trigramWords.get(g);
      if (!list) continue;
      for (const id of list) if (common[id]!++ === 0) touched.push(id);
    }
    const lo = w.t.length - w.k - 2;
    const hi = w.t.length + w.k + 2;
    const found: Candidate[] = [];
    for (const id of touched) {
      const c = common[id]!;
      common[id] = 0;
      if (this.docsOf[id]! < 1) continue;
      const word = this.words[id]!;
      if (word.length < lo || word.length > hi || word === w.t) continue;
      // pg_trgm's CALCSML, in float4.
      const sim = Math.fround(c / (mine.length + this.trigramCount[id]! - c));
      if (sim >= w.th) found.push({ word, sim });
    }
    found.sort((a, b) => b.sim - a.sim || cmp(a.word, b.word));
    const out = found.slice(0, max);
    for (const v of swaps) {
      const id = this.wordId.get(v);
      if (id !== undefined && this.docsOf[id]! >= 1 && searchWord(v)) out.push({ word: v, sim: 1 });
    }
    return out;
  }

  /** After the build's documents: the sorted dictionary and the packed postings. */
  seal(): void {
    const order = this.words.map((_, i) => i).sort((a, b) => cmp(this.words[a]!, this.words[b]!));
    this.sortedIds = order;
    this.sorted = order.map((i) => this.words[i]!);
    const counts = new Int32Array(this.words.length + 1);
    // The build's lexemes, exactly sized.
    this.lexData = this.lexData.slice(0, this.lexAt[this.slots]!);
    for (let slot = 0; slot < this.slots; slot++) {
      const lex = this.lexOf(slot);
      if (!lex) continue;
      const n = lex[0]!;
      for (let i = 0; i < n; i++) counts[lex[1 + i]! + 1]!++;
    }
    for (let i = 1; i < counts.length; i++) counts[i]! += counts[i - 1]!;
    const start = counts.slice();
    const slots = new Int32Array(counts[counts.length - 1]!);
    const terms = new Float32Array(slots.length);
    const fill = counts.slice();
    for (let slot = 0; slot < this.slots; slot++) {
      const lex = this.lexOf(slot);
      if (!lex) continue;
      const n = lex[0]!;
      for (let i = 0; i < n; i++) {
        const w = lex[1 + i]!;
        const at = fill[w]!++;
        slots[at] = slot;
        terms[at] = orTermOf(lex, i);
      }
    }
    this.postStart = start;
    this.postSlots = slots;
    this.postTerms = terms;
    this.buildPrefixTable();
  }

  /** The order of a prefix search between two slots of known ranks (negative: `a` first). */
  private before(a: number, ra: number, b: number, rb: number): number {
    const d = (this.flags[a]! & FLAG_DEMOTED) - (this.flags[b]! & FLAG_DEMOTED);
    if (d) return d;
    if (rb !== ra) return rb - ra;
    const c = this.created[b]! - this.created[a]!;
    if (c) return c;
    return cmp(this.ids[a]!, this.ids[b]!);
  }

  /** Every prefix list, from the build's postings (after `seal`). */
  private buildPrefixTable(): void {
    this.prefixTable = new Map();
    this.scratch();
    const [accExact, accPrefix] = this.acc as [Float32Array, Float32Array];
    const seen = this.mark;
    const rank = new Float64Array(this.slots);
    const sorted = this.sorted;
    for (let len = 1; len <= TABLE_PREFIX; len++) {
      for (let lo = 0; lo < sorted.length;) {
        const word = sorted[lo]!;
        if (word.length < len) {
          lo++;
          continue;
        }
        const prefix = word.slice(0, len);
        let hi = lo + 1;
        while (hi < sorted.length && sorted[hi]!.startsWith(prefix)) hi++;
        // rankOr of the prefix and of the whole word, as IndexView.rank sums them.
        const touched: number[] = [];
        for (let i = lo; i < hi; i++) {
          const exact = sorted[i] === prefix;
          this.postings(this.sortedIds[i]!, (slot, term) => {
            if (!seen[slot]) {
              seen[slot] = 1;
              touched.push(slot);
              accExact[slot] = 0;
              accPrefix[slot] = 0;
            }
            accPrefix[slot] = accPrefix[slot]! + term / PI2_6;
            if (exact) accExact[slot] = accExact[slot]! + term / PI2_6;
          });
        }
        for (const slot of touched) {
          seen[slot] = 0;
          rank[slot] = accExact[slot]! + 0.7 * accPrefix[slot]!;
        }
        touched.sort((a, b) => this.before(a, rank[a]!, b, rank[b]!));
        this.prefixTable.set(prefix, { built: Int32Array.from(touched), added: [] });
        lo = hi;
      }
    }
  }

  /** The rank of a search of `prefix` alone for a slot's document (as IndexView.rank). */
  private prefixRank(slot: number, prefix: string): number {
    const lex = this.lexOf(slot);
    if (!lex) return 0;
    const n = lex[0]!;
    let exact = 0;
    let acc = 0;
    for (let e = 0; e < n; e++) {
      const w = this.words[lex[1 + e]!]!;
      if (!w.startsWith(prefix)) continue;
      const term = orTermOf(lex, e);
      acc = Math.fround(acc + term / PI2_6);
      if (w === prefix) exact = Math.fround(term / PI2_6);
    }
    return exact + 0.7 * acc;
  }

  /** Places a new slot in the lists of its words' short prefixes. */
  private addToPrefixTable(slot: number): void {
    const lex = this.lexOf(slot)!;
    const prefixes = new Set<string>();
    for (let e = 0; e < lex[0]!; e++) {
      const w = this.words[lex[1 + e]!]!;
      for (let len = 1; len <= Math.min(TABLE_PREFIX, w.length); len++)
        prefixes.add(w.slice(0, len));
    }
    for (const prefix of prefixes) {
      let list = this.prefixTable.get(prefix);
      if (!list) this.prefixTable.set(prefix, (list = { built: new Int32Array(0), added: [] }));
      const rank = this.prefixRank(slot, prefix);
      // Its place in the build's list, then among those added before the same place.
      const built = list.built;
      let lo = 0;
      let hi = built.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const other = built[mid]!;
        if (this.before(other, this.prefixRank(other, prefix), slot, rank) < 0) lo = mid + 1;
        else hi = mid;
      }
      const at = lo;
      const added = list.added;
      lo = 0;
      hi = added.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const o = added[mid]!;
        if (o.at < at || (o.at === at && this.before(o.slot, o.rank, slot, rank) < 0)) lo = mid + 1;
        else hi = mid;
      }
      added.splice(lo, 0, { slot, rank, at });
    }
  }

  /**
   * A relevance page of a one-word query of at most TABLE_PREFIX letters from the prefix table:
   * the first `want` slots passing the filters, and how many pass (counted up to `cap` + 1).
   * Undefined when the query is not such a query.
   */
  prefixPage(
    tq: TextQuery,
    filter: IndexFilter,
    want: number,
    cap: number,
  ): { slots: number[]; n: number } | undefined {
    if (tq.tokens.length !== 1 || tq.corrections.size) return undefined;
    const token = tq.tokens[0]!;
    if (token.length > TABLE_PREFIX) return undefined;
    const list = this.prefixTable.get(token);
    const slots: number[] = [];
    if (!list) return { slots, n: 0 };
    const pass = this.filterOf(filter);
    let n = 0;
    const { built, added } = list;
    let j = 0;
    const take = (slot: number): boolean => {
      if (!pass(slot)) return true;
      if (slots.length < want) slots.push(slot);
      return ++n <= cap;
    };
    for (let i = 0; i <= built.length; i++) {
      while (j < added.length && added[j]!.at === i)
        if (!take(added[j++]!.slot)) return { slots, n };
      if (i < built.length && !take(built[i]!)) return { slots, n };
    }
    return { slots, n };
  }

  /** Whether a slot is live and passes the filters. */
  private filterOf(filter: IndexFilter): (slot: number) => boolean {
    const country =
      filter.country === undefined ? undefined : (this.countryCode.get(filter.country) ?? -1);
    const category =
      filter.category === 'all'
        ? undefined
        : filter.category === 'empty'
          ? 0
          : (this.categoryCode.get(filter.category) ?? -1);
    const need =
      (filter.online ? FLAG_ONLINE : 0) |
      (filter.hasVacancy ? FLAG_VACANCY : 0) |
      (filter.onMap ? FLAG_MAP : 0);
    return (s) =>
      this.alive[s] === 1 &&
      (country === undefined || this.country[s] === country) &&
      (category === undefined || this.category[s] === category) &&
      (this.flags[s]! & need) === need;
  }

  /** Calls `f(slot, term)` for each live posting of word `id`, in slot order. */
  postings(id: number, f: (slot: number, term: number) => void): void {
    const alive = this.alive;
    if (id + 1 < this.postStart.length) {
      const end = this.postStart[id + 1]!;
      const slots = this.postSlots;
      const terms = this.postTerms;
      for (let i = this.postStart[id]!; i < end; i++) {
        const s = slots[i]!;
        if (alive[s]) f(s, terms[i]!);
      }
    }
    const e = this.extra.get(id);
    if (e) {
      for (let i = 0; i < e.slots.length; i++) {
        const s = e.slots[i]!;
        if (alive[s]) f(s, e.terms[i]!);
      }
    }
  }

  /** Word ids of an item's entries in the dictionary, in word order. */
  entries(item: Item): number[] {
    if (!item.prefix) {
      const id = this.wordId.get(item.word);
      return id === undefined ? [] : [id];
    }
    const out: number[] = [];
    for (let i = lowerBound(this.sorted, item.word); i < this.sorted.length; i++) {
      if (!this.sorted[i]!.startsWith(item.word)) break;
      out.push(this.sortedIds[i]!);
    }
    return out;
  }

  private scratch(): void {
    const n = this.slots;
    if (this.mark.length < n) {
      const size = Math.max(n, this.mark.length * 2, 1024);
      this.mark = new Uint8Array(size);
      this.acc = [new Float32Array(size), new Float32Array(size), new Float32Array(size)];
    }
  }

  /** The slots matching `tq.match` and the filters, in slot order. */
  match(tq: TextQuery, filter: IndexFilter): number[] {
    this.scratch();
    const mark = this.mark;
    mark.fill(0, 0, this.slots);
    const tokens = tq.tokens;
    tokens.forEach((t, i) => {
      const alternatives = [
        ...this.entries({ word: t, prefix: true }),
        ...(tq.corrections.get(t) ?? []).flatMap((c) => this.entries({ word: c, prefix: false })),
      ];
      // The build's postings in a plain loop (the hot path of a short prefix), then the later ones.
      const start = this.postStart;
      const slots = this.postSlots;
      for (const w of alternatives) {
        if (w + 1 < start.length) {
          const end = start[w + 1]!;
          for (let k = start[w]!; k < end; k++) {
            const s = slots[k]!;
            if (mark[s] === i) mark[s] = i + 1;
          }
        }
        const e = this.extra.get(w);
        if (e) for (const s of e.slots) if (mark[s] === i) mark[s] = i + 1;
      }
    });
    const found: number[] = [];
    const all = tokens.length;
    const pass = this.filterOf(filter);
    for (let s = 0; s < this.slots; s++) if (mark[s] === all && pass(s)) found.push(s);
    return found;
  }

  /**
   * ts_rank of an OR query (or one item) for every slot its items reach, into `acc` (float4, as
   * calc_rank_or sums): items sorted and de-duplicated, each item's entries in word order.
   */
  rankOr(items: Item[], acc: Float32Array): void {
    acc.fill(0, 0, this.slots);
    const uniq = sortUniq(items);
    for (const item of uniq) {
      for (const w of this.entries(item)) {
        this.postings(w, (s, term) => {
          acc[s] = acc[s]! + term / PI2_6;
        });
      }
    }
  }

  /** calc_rank_and over one document (tsrank.c), for a query of two or more distinct items. */
  rankAnd(slot: number, uniq: Item[]): number {
    const lex = this.lexOf(slot);
    if (!lex) return 0;
    const n = lex[0]!;
    const pos: (Lexemes | undefined)[] = new Array(uniq.length);
    let res = -1;
    for (let i = 0; i < uniq.length; i++) {
      const item = uniq[i]!;
      // The document's entries of the item, in word order (its word ids are in word order).
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cmp(this.words[lex[1 + mid]!]!, item.word) < 0) lo = mid + 1;
        else hi = mid;
      }
      for (let e = lo; e < n; e++) {
        const w = this.words[lex[1 + e]!]!;
        if (item.prefix ? !w.startsWith(item.word) : w !== item.word) break;
        const post = lex.subarray(lex[1 + n + e]!, lex[1 + n + e + 1]!);
        pos[i] = post;
        for (let k = 0; k < i; k++) {
          const ct = pos[k];
          if (!ct) continue;
          for (let l = 0; l < post.length; l++) {
            for (let p = 0; p < ct.length; p++) {
              const dist = Math.abs((post[l]! & 0x3fff) - (ct[p]! & 0x3fff));
              if (!dist) continue;
              const curw = Math.fround(
                Math.sqrt(
                  Math.fround(
                    Math.fround(WEIGHTS[post[l]! >> 14]! * WEIGHTS[ct[p]! >> 14]!) *
                      wordDistance(dist),
                  ),
                ),
              );
              res = res < 0 ? curw : Math.fround(1.0 - (1.0 - res) * (1.0 - curw));
            }
          }
        }
      }
    }
    return res < 0 ? Math.fround(1e-20) : res;
  }

  /** Whether many slots changed since the build (a rebuild would pack them again). */
  worn(): boolean {
    return this.churn > Math.max(1000, this.live * REBUILD_SHARE);
  }

  /**
   * An estimate of the bytes the index keeps, from its arrays: a typed array's contents plus about
   * 200 bytes of objects (the view, its buffer, the backing store's record); a string's characters
   * (1 or 2 bytes each) plus 16; a JS array's 8 bytes an element; a Map's about 40 an entry.
   */
  bytes(): number {
    const str = (t: string) => 16 + (/[\u0100-\uffff]/.test(t) ? 2 : 1) * t.length;
    let n = 0;
    for (const [prefix, list] of this.prefixTable)
      n += str(prefix) + 40 + 64 + list.built.byteLength + 200 + list.added.length * 56;
    for (const r of this.summary) n += 8 + (r === undefined ? 0 : str(r));
    for (const w of this.words) n += 2 * str(w) + 3 * 8 + 40 * 2;
    for (const id of this.ids) n += str(id) + 8 + 40;
    for (const [, e] of this.extra) n += 40 + 64 + 16 * e.slots.length;
    for (const [, w] of this.lapsed) n += 40 + 200 + w.byteLength;
    const arrays = [
      this.lexData,
      this.lexAt,
      this.alive,
      this.country,
      this.category,
      this.flags,
      this.created,
      this.docsOf,
      this.trigramCount,
      this.postStart,
      this.postSlots,
      this.postTerms,
      this.mark,
      ...this.acc,
    ];
    return n + arrays.reduce((s, a) => s + a.byteLength + 200, 0);
  }
}

/** The words search_words keeps (migration 0010): 3-40 letters, not a number. */
function searchWord(w: string): boolean {
  return w.length >= 3 && w.length <= 40 && !/^[0-9]+$/.test(w);
}

/** pg_trgm's distinct trigrams of one word (padded with two blanks before, one after). */
function trigrams(word: string): string[] {
  const padded = `  ${word} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return [...out];
}

/** Byte order of ASCII search keys (tsCompareString). */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lowerBound(sorted: string[], w: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < w) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** SortAndUniqItems (tsrank.c): by word, duplicates (whatever their prefix flag) dropped. */
function sortUniq(items: Item[]): Item[] {
  const sorted = [...items].sort((a, b) => cmp(a.word, b.word));
  return sorted.filter((it, i) => i === 0 || it.word !== sorted[i - 1]!.word);
}

/** word_distance (tsrank.c). */
function wordDistance(w: number): number {
  if (w > 100) return Math.fround(1e-30);
  return Math.fround(1.0 / (1.005 + 0.05 * Math.exp(Math.fround(w) / 1.5 - 2)));
}

/**
 * One entry's term of calc_rank_or before the division by pi²/6, as float4:
 * wjm + Σ w_j / j² - wjm / jm².
 */
function orTerm(pos: ArrayLike<number>): number {
  let resj = 0;
  let wjm = -1;
  let jm = 0;
  for (let j = 0; j < pos.length; j++) {
    const w = WEIGHTS[pos[j]! >> 14]!;
    resj = Math.fround(resj + Math.fround(w / ((j + 1) * (j + 1))));
    if (w > wjm) {
      wjm = w;
      jm = j;
    }
  }
  return Math.fround(Math.fround(wjm + resj) - Math.fround(wjm / ((jm + 1) * (jm + 1))));
}

function orTermOf(lex: Lexemes, i: number): number {
  const n = lex[0]!;
  return orTerm(lex.subarray(lex[1 + n + i]!, lex[1 + n + i + 1]!));
}

const WEIGHT_OF: Record<string, number> = { A: 3, B: 2, C: 1, D: 0 };

/**
 * The lexemes of `search_doc::text` ('word':1A,5B 'other':3), each with its positions packed as
 * pos | weight << 14 (WordEntryPos). Search keys are [a-z0-9] only: no quotes to unescape.
 */
export function parseDoc(text: string): { word: string; pos: number[] }[] {
  const out: { word: string; pos: number[] }[] = [];
  const re = /'((?:[^']|'')*)'(?::([0-9A-D,]+))?/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const word = m[1]!.replace(/''/g, "'");
    const pos = (m[2] ?? '').split(',').filter(Boolean);
    out.push({
      word,
      pos: pos.length
        ? pos.map((p) => {
            const last = p[p.length - 1]!;
            const weight = WEIGHT_OF[last];
            return weight === undefined ? Number(p) : Number(p.slice(0, -1)) | (weight << 14);
          })
        : // No positions: ts_rank's POSNULL (position 0, weight D).
          [0],
    });
  }
  return out;
}

/** The three tsqueries of rankExpression as ts_rank items. */
function queryItems(tq: TextQuery) {
  return {
    exact: tq.tokens.map((word) => ({ word, prefix: false })),
    prefix: tq.tokens.map((word) => ({ word, prefix: true })),
    match: tq.tokens.flatMap((t) => [
      { word: t, prefix: true },
      ...(tq.corrections.get(t) ?? []).map((word) => ({ word, prefix: false })),
    ]),
  };
}

/** One query's answer from the index. */
export class IndexView {
  constructor(private readonly data: IndexData) {}

  /** The matching services' slots, in slot order. */
  match(tq: TextQuery, filter: IndexFilter): number[] {
    return this.data.match(tq, filter);
  }

  /** A relevance page of a prefix of up to three letters from the prefix table (see IndexData). */
  prefixPage(tq: TextQuery, filter: IndexFilter, want: number, cap: number) {
    return this.data.prefixPage(tq, filter, want, cap);
  }

  id(slot: number): string {
    return this.data.ids[slot]!;
  }

  /** What a page shows of the slot's service. */
  summary(slot: number): Omit<SummaryRow, 'distanceKm'> {
    return this.data.summaryOf(slot);
  }

  /** Typo candidates from the dictionary (a WordSource: no statement). */
  readonly candidates = (w: TypoWord, swaps: string[], max: number): Candidate[] =>
    this.data.candidates(w, swaps, max);

  demoted(slot: number): boolean {
    return (this.data.flags[slot]! & FLAG_DEMOTED) !== 0;
  }

  created(slot: number): number {
    return this.data.created[slot]!;
  }

  /**
   * rankExpression (searchQuery.ts) of each slot as PostgreSQL computes it: each ts_rank in float4
   * steps, their weighted sum in float8 (`0.7 * real` is numeric times real: double precision).
   */
  rank(tq: TextQuery, slots: number[]): Float64Array {
    const d = this.data;
    const items = queryItems(tq);
    const [accExact, accPrefix, accMatch] = d.acc as [Float32Array, Float32Array, Float32Array];
    d.rankOr(items.exact, accExact);
    d.rankOr(items.prefix, accPrefix);
    const nExact = sortUniq(items.exact).length;
    const nPrefix = sortUniq(items.prefix).length;
    const uniqMatch = sortUniq(items.match);
    const single = tq.tokens.length === 1 && !tq.corrections.size;
    // The match query is an OR of one word's alternatives, or an AND of the words'.
    const andMatch = tq.tokens.length > 1 && uniqMatch.length > 1;
    if (!single && !andMatch) d.rankOr(items.match, accMatch);
    const out = new Float64Array(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i]!;
      const exact = Math.fround(accExact[s]! / nExact);
      const prefix = Math.fround(accPrefix[s]! / nPrefix);
      if (single) {
        out[i] = exact + 0.7 * prefix;
        continue;
      }
      const match = andMatch
        ? d.rankAnd(s, uniqMatch)
        : Math.fround(accMatch[s]! / uniqMatch.length);
      out[i] = exact + 0.5 * prefix + 0.2 * match;
    }
    return out;
  }
}

/** The index of one database (per cache state: a stopped cache starts a new one). */
class WordIndex {
  data: IndexData | null = null;
  /** Updates and builds, in order: a search waits for them. */
  private pending: Promise<void> = Promise.resolve();
  private building = false;
  /** Services changed while a build ran: read again once it is done. */
  private queued = new Set<string>();
  /** A change of anything arrived while building: build again. */
  private again = false;
  failed = false;
  /** The last build's error (for the log). */
  error: unknown;
  private failedAt = 0;

  constructor(private readonly db: Db) {}

  /** A notification's change (null: anything). */
  changed(change: Change | null): void {
    if (!change) {
      this.data = null;
      if (this.building) this.again = true;
      else this.build();
      return;
    }
    const used = change.used;
    if (used && this.data) {
      const data = this.data;
      this.pending = this.pending.then(() => {
        for (const [id, n] of Object.entries(used)) data.setUsed(id, n);
      });
    }
    // A build reads the used counts as they are: none is missed.
    const ids = change.services;
    if (!ids?.length) return;
    if (this.building) for (const id of ids) this.queued.add(id);
    if (this.data) {
      const data = this.data;
      this.pending = this.pending.then(() => this.update(data, ids));
    }
  }

  private async update(data: IndexData, ids: string[]): Promise<void> {
    if (this.data !== data) return;
    try {
      const rows = await readRows(this.db, ids);
      if (this.data !== data) return;
      for (const id of ids) data.remove(id);
      for (const row of rows) data.add(row, false);
      if (data.worn() && !this.building) this.build();
    } catch {
      this.data = null;
      this.build();
    }
  }

  /** Builds again in the background; the current data (if any) serves and follows meanwhile. */
  build(): void {
    if (this.building) {
      this.again = true;
      return;
    }
    this.building = true;
    this.again = false;
    this.queued.clear();
    void (async () => {
      let data: IndexData | null = new IndexData();
      try {
        let after = '';
        for (;;) {
          const rows = await readRows(this.db, undefined, after);
          for (const row of rows) data.add(row, true);
          if (rows.length < CHUNK) break;
          after = rows[rows.length - 1]!.id;
        }
        data.seal();
        const changed = [...this.queued];
        this.queued.clear();
        if (changed.length) {
          const rows = await readRows(this.db, changed);
          for (const id of changed) data.remove(id);
          for (const row of rows) data.add(row, false);
        }
        this.failed = false;
      } catch (err) {
        data = null;
        this.failed = true;
        this.failedAt = Date.now();
        this.error = err;
      }
      this.building = false;
      if (this.again) {
        this.data = null;
        this.build();
        return;
      }
      if (data && this.queued.size) {
        // Changes arrived during the last read: apply them in order with later ones.
        const ids = [...this.queued];
        this.queued.clear();
        const built = data;
        this.data = built;
        this.pending = this.pending.then(() => this.update(built, ids));
        return;
      }
      this.data = data;
    })();
  }

  /** A failed build is tried again on a search, at most every RETRY_MS. */
  retryDue(): boolean {
    return this.failed && !this.building && Date.now() - this.failedAt > RETRY_MS;
  }

  private whenBuilt(): Promise<void> {
    return new Promise<void>((resolve) => {
      const check = () => (this.building ? setTimeout(check, 5) : resolve());
      check();
    });
  }

  /**
   * The data, once every update seen so far is applied; null until built, or after a change it
   * cannot apply until built again (a rebuild of worn data serves the old data meanwhile).
   */
  async ready(): Promise<IndexData | null> {
    // Updates queued meanwhile are awaited too.
    for (;;) {
      const p = this.pending;
      await p;
      if (p === this.pending) break;
    }
    return this.data;
  }

  /** Resolves once no build runs (tests, the bench). */
  async built(): Promise<boolean> {
    await this.whenBuilt();
    await this.pending;
    return this.data !== null;
  }
}

/**
 * The services' rows as the index reads them: `ids`, or a chunk by id; the approved ones (those
 * lapsed only count their words).
 */
async function readRows(db: Db, ids?: string[], after = ''): Promise<Row[]> {
  const where = ids
    ? sql`services.id = ANY(${`{${ids.join(',')}}`}::uuid[])`
    : after
      ? sql`services.id > ${after}::uuid`
      : sql`true`;
  const res = await db.execute(sql`
    SELECT ${summarySelect}, services.search_doc::text AS doc, services.country_code AS country,
      (CASE WHEN services.is_online THEN ${sql.raw(String(FLAG_ONLINE))} ELSE 0 END
        + CASE WHEN services.have_vacancy THEN ${sql.raw(String(FLAG_VACANCY))} ELSE 0 END
        + CASE WHEN services.show_on_map AND services.lat IS NOT NULL AND services.lng IS NOT NULL
            THEN ${sql.raw(String(FLAG_MAP))} ELSE 0 END
        + CASE WHEN services.confirmation = 'overdue' THEN ${sql.raw(String(FLAG_DEMOTED))} ELSE 0 END
        + CASE WHEN services.confirmation = 'lapsed' THEN ${sql.raw(String(FLAG_LAPSED))} ELSE 0 END)::int AS flags,
      extract(epoch FROM services.created_at)::float8 AS created
    FROM services WHERE ${where} AND services.status = 'approved'
    ${ids ? sql`` : sql`ORDER BY services.id LIMIT ${CHUNK}`}`);
  type Read = Omit<SummaryRow, 'distanceKm'> & {
    doc: string;
    country: string;
    flags: number | string;
    created: number | string;
  };
  return (res as unknown as { rows: Read[] }).rows.map(
    ({ doc, country, flags, created, ...summary }) => ({
      id: summary.id,
      doc,
      country,
      category: summary.category,
      flags: Number(flags),
      created: Number(created),
      summary,
    }),
  );
}

/**
 * The word index of `db`, ready and up to date with every write seen; null when the search
 * must take the SQL path (off, not listening, building, failed). Starts a build when there is
 * none yet.
 */
export async function wordIndexOf(db: Db): Promise<IndexView | null> {
  if (!enabled) return null;
  const f = await followSearchChanges(db, () => new WordIndex(db));
  if (f.created || f.follower.retryDue()) f.follower.build();
  if (!f.listening) return null;
  const data = await f.follower.ready();
  return data && new IndexView(data);
}

/**
 * The word index and the text query of `q` (null when it has no word to match), the index up to
 * date with the writes seen while the query's corrections were read; null when the search must
 * take the SQL path.
 */
export async function indexedQuery(
  db: Db,
  q: string,
): Promise<{ index: IndexView; tq: TextQuery | null } | null> {
  const index = await wordIndexOf(db);
  if (!index) return null;
  // Corrections from the index's dictionary: no statement, so nothing changes meanwhile.
  const tq = await buildTextQuery(db, q, { words: index.candidates });
  return { index, tq };
}

/**
 * Starts building `db`'s word index (server start, tests, the bench) and resolves once it serves:
 * true when it is built and the database listens (on PostgreSQL the listening connection comes
 * a moment later, and its start builds the index again); false when the index is off or is not
 * serving within `timeoutMs`.
 */
export async function buildWordIndex(db: Db, timeoutMs = 60_000): Promise<boolean> {
  if (!enabled) return false;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const f = await followSearchChanges(db, () => new WordIndex(db));
    if (f.created) f.follower.build();
    if ((await f.follower.built()) && f.listening) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The bytes the index of `db` keeps (an estimate from its arrays), 0 when none. */
export async function wordIndexBytes(db: Db): Promise<number> {
  const f = await followSearchChanges(db, () => new WordIndex(db));
  return f.follower.data?.bytes() ?? 0;
}
