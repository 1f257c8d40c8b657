import { sql } from 'drizzle-orm';
import type { Db } from '../db/types.js';
import { editDistance } from './editDistance.js';
import { queryTokens } from './normalize.js';

/** Edits a query word may be away from a stored word: 1 from 4 letters, 2 from 8. */
export function allowedEdits(word: string): number {
  if (/^[0-9]+$/.test(word)) return 0;
  if (word.length >= 8) return 2;
  if (word.length >= 4) return 1;
  return 0;
}

/**
 * Latin letter groups of single Cyrillic letters (KMU): ш → sh, щ → shch, ж → zh, х → kh,
 * ч → ch, ц → ts, я → ia, ю → iu, є → ie. One slip on a Cyrillic keyboard changes a whole group,
 * 2-4 edits in the search key, so distances are also measured on the compact form, where each
 * group is one symbol again.
 */
const GROUPS: [RegExp, string][] = [
  [/shch/g, '1'],
  [/sh/g, '2'],
  [/zh/g, '3'],
  [/kh/g, '4'],
  [/ch/g, '5'],
  [/ts/g, '6'],
  [/ia/g, '7'],
  [/iu/g, '8'],
  [/ie/g, '9'],
];
/** The compact form of a search-key word: each letter group of one Cyrillic letter as one symbol. */
export function compactKey(word: string): string {
  let s = word;
  for (const [re, symbol] of GROUPS) s = s.replace(re, symbol);
  return s;
}
const EXPAND: Record<string, string> = Object.fromEntries(
  GROUPS.map(([re, symbol]) => [symbol, re.source]),
);
const expandKey = (compact: string) => compact.replace(/[1-9]/g, (d) => EXPAND[d]!);

/** Edits between a query word and a stored word: the fewer of the plain and the compact form. */
export function typoDistance(token: string, word: string, max: number): number {
  const plain = editDistance(token, word, max);
  if (plain <= 1) return plain;
  return Math.min(plain, editDistance(compactKey(token), compactKey(word), max));
}

/**
 * Words one transposition away, in the plain and in the compact form ("kshola" for "shkola"):
 * looked up exactly, because pg_trgm misses them in short words (a transposition breaks up to
 * four of a word's trigrams, all of them in a 4-letter word).
 */
export function transpositions(token: string): string[] {
  const out = new Set<string>();
  for (const form of [token, compactKey(token)]) {
    const chars = [...form];
    for (let i = 0; i + 1 < chars.length; i++) {
      if (chars[i] === chars[i + 1]) continue;
      const c = [...chars];
      [c[i], c[i + 1]] = [c[i + 1]!, c[i]!];
      out.add(expandKey(c.join('')));
    }
  }
  out.delete(token);
  return [...out];
}

/**
 * The trigram similarity below which a word `n` letters long is surely more than `k` edits away,
 * so pg_trgm can skip it. Of its n + 1 padded trigrams, a transposition breaks at most four and a
 * substitution three; this allows one transposition for k = 1 and two substitutions for k = 2.
 * A letter group of one Cyrillic letter (sh, kh…) breaks two more. Never below 0.2, or short
 * words would scan half the index (short transpositions are looked up exactly instead).
 */
function trigramFloor(token: string, k: number): number {
  const n = token.length;
  const groups = token.length - compactKey(token).length > 0 ? 2 : 0;
  const broken = (k === 1 ? 4 : 6) + groups;
  return Math.max(0.2, (n + 1 - broken) / (n + 1 + broken) - 0.01);
}

/** How many corrections one query word may bring in. */
const MAX_CORRECTIONS = 6;
/** Trigram candidates looked at per query word before the edit-distance check. */
const MAX_CANDIDATES = 60;

/** A query word that may hold a typo: its allowed edits and its trigram floor. */
export interface TypoWord {
  t: string;
  k: number;
  th: number;
}

/** A stored word near a query word, with its trigram similarity (1 for a transposition). */
export interface Candidate {
  word: string;
  sim: number;
  docs?: number;
}

/**
 * Where a query's typo candidates come from: the search words of every document (`all`,
 * vacancies too), or only the words of approved services (`services`: a correction to a word no
 * service has could not match a service).
 */
export type WordScope = 'all' | 'services';

/**
 * Typo candidates found in memory (the word index, wordIndex.ts): the same as
 * poruch_query_words' for `services` (migration 0019) — trigram candidates with similarity at
 * least `w.th`, the best MAX_CANDIDATES by (similarity, word), then the transpositions `swaps`
 * that are words.
 */
export type WordSource = (w: TypoWord, swaps: string[], maxCandidates: number) => Candidate[];

/** The query words that may hold a typo. */
function typoWords(tokens: string[]): TypoWord[] {
  return tokens
    .map((t) => ({ t, k: allowedEdits(t) }))
    .filter((w) => w.k > 0)
    .map((w) => ({ ...w, th: trigramFloor(w.t, w.k) }));
}

/**
 * The corrections of a query word among its candidates (in the order found, the first of a word
 * kept): those within `k` edits, the nearest first, then by similarity, then by word, at most
 * MAX_CORRECTIONS.
 */
function pickCorrections(t: string, k: number, candidates: Candidate[]) {
  const seen = new Set<string>();
  return candidates
    .filter((c) => !seen.has(c.word) && seen.add(c.word))
    .map((c) => ({ ...c, d: typoDistance(t, c.word, k) }))
    .filter((c) => c.d <= k)
    .sort((a, b) => a.d - b.d || b.sim - a.sim || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0))
    .slice(0, MAX_CORRECTIONS);
}

/** The corrections of each query word, from `source` (in memory: no statement). */
export function correctionsFrom(tokens: string[], source: WordSource): Map<string, string[]> {
  const corrections = new Map<string, string[]>();
  for (const w of typoWords(tokens)) {
    const found = pickCorrections(w.t, w.k, source(w, transpositions(w.t), MAX_CANDIDATES));
    if (found.length)
      corrections.set(
        w.t,
        found.map((c) => c.word),
      );
  }
  return corrections;
}

/** What the word lookup found for the words of a query. */
export interface WordLookup {
  /** Stored words within the allowed edit distance of each query word. */
  corrections: Map<string, string[]>;
  /**
   * For each query word asked for in `counted`: the most approved services any one word it
   * matches is in (the word itself, a word it starts, or a correction), from the document
   * counts of `search_words` (migration 0010). The services the query word matches are at
   * least this many.
   */
  atLeast: Map<string, number>;
  /**
   * For each query word asked for in `counted` of at least 3 letters, not a number: the sum of
   * the document counts of the words it starts and of its corrections. The services the query
   * word matches are at most this many (`search_words` counts no shorter words, nor numbers).
   */
  atMost: Map<string, number>;
  /** With `counted`: about how many services there are (the planner's estimate; 0: unknown). */
  services: number;
}

/**
 * Stored words within the allowed edit distance of each query word: pg_trgm finds candidates
 * in `search_words` through its trigram index, and transpositions are looked up exactly; then
 * the distance is checked here, on the plain and on the compact form (see `compactKey`). With
 * `counted`, also the document counts of the words those query words match (see
 * `WordLookup.atLeast` and `atMost`). One statement, `poruch_query_words` (migrations 0010,
 * 0015), which sets the similarity threshold for itself only; none when no word can have a typo
 * and none is counted.
 */
export async function lookupWords(
  db: Db,
  tokens: string[],
  counted: string[] = [],
  scope: WordScope = 'all',
): Promise<WordLookup> {
  const wanted = typoWords(tokens);
  const corrections = new Map<string, string[]>();
  const atLeast = new Map<string, number>();
  const atMost = new Map<string, number>();
  let services = 0;
  if (!wanted.length && !counted.length) return { corrections, atLeast, atMost, services };
  const threshold = Math.min(1, ...wanted.map((w) => w.th));
  const swaps = wanted.flatMap(({ t }) => transpositions(t).map((v) => ({ t, v })));
  const res = await db.execute(sql`
    SELECT token, word, sim, docs, docs_sum FROM poruch_query_words(${JSON.stringify(wanted)}::json,
      ${JSON.stringify(swaps)}::json, ${threshold}::float8, ${MAX_CANDIDATES}::int,
      ${JSON.stringify(counted)}::json, ${scope === 'services' ? 1 : 0}::int)`);
  const rows = (
    res as unknown as {
      rows: {
        token: string | null;
        word: string | null;
        sim: number | null;
        docs: number;
        docs_sum: string | number | null;
      }[];
    }
  ).rows;
  for (const r of rows) {
    if (r.token === null) services = r.docs;
    else if (r.word === null) {
      atLeast.set(r.token, Math.max(atLeast.get(r.token) ?? 0, r.docs));
      if (r.token.length >= 3 && !/^[0-9]+$/.test(r.token)) atMost.set(r.token, Number(r.docs_sum));
    }
  }
  for (const { t, k } of wanted) {
    const found = pickCorrections(
      t,
      k,
      rows
        .filter((r) => r.token === t && r.word !== null)
        .map((r) => ({ word: r.word!, sim: Number(r.sim), docs: r.docs })),
    );
    if (found.length)
      corrections.set(
        t,
        found.map((c) => c.word),
      );
    if (atLeast.has(t)) {
      atLeast.set(t, Math.max(atLeast.get(t)!, ...found.map((c) => c.docs ?? 0)));
    }
    if (atMost.has(t))
      atMost.set(
        t,
        found.reduce((sum, c) => sum + (c.docs ?? 0), atMost.get(t)!),
      );
  }
  return { corrections, atLeast, atMost, services };
}

/** The text-search queries of one user query (`to_tsquery('simple', …)` syntax). */
export interface TextQuery {
  /** The query words, as search keys. */
  tokens: string[];
  /** Every word, each as itself, a prefix or a correction: what a result must match. */
  match: string;
  /** Any word, whole: ranks whole-word hits first. */
  exact: string;
  /** Any word as a prefix: ranks prefix hits above corrections. */
  prefix: string;
  corrections: Map<string, string[]>;
  /**
   * With `countMatches` and one query word: the approved services matching `match` are at
   * least this many (see `WordLookup.atLeast`), so a count capped below it need not be made.
   */
  atLeast?: number;
  /** With `atLeast`: the share of all services it is (0 when the number of services is unknown). */
  share?: number;
  /**
   * With `countMatches`: the share of all services that the approved services matching `match`
   * are at most (the fewest of the query words' `WordLookup.atMost`); unset when unknown.
   */
  shareAtMost?: number;
}

let boundsOn = true;
/**
 * Off: queries no longer bound their matches by the words' document counts (`shareAtMost`), and
 * count only one-word queries, as before migration 0015 (for the benchmark's before and after).
 */
export function setMatchBounds(on: boolean): void {
  boundsOn = on;
}

/**
 * Turns what the user typed into text-search queries: normalised, transliterated words; each
 * matches itself, any word it starts (results as you type) and stored words within the allowed
 * typo distance; all words must match. Null when the query has no searchable word.
 * `countMatches` (for a query over all approved services, no other filter): also look up
 * `TextQuery.atLeast` (one word only, since words together can match fewer than each alone)
 * and `shareAtMost` (every word).
 */
export async function buildTextQuery(
  db: Db,
  q: string | undefined,
  options: {
    countMatches?: boolean;
    /** Where corrections come from (`all` unless a services search says so). */
    scope?: WordScope;
    /** The typo candidates of `services`, in memory (no statement; nothing counted). */
    words?: WordSource;
  } = {},
): Promise<TextQuery | null> {
  const tokens = q ? queryTokens(q) : [];
  if (!tokens.length) return null;
  const counted = options.countMatches && (boundsOn || tokens.length === 1) ? tokens : [];
  const { corrections, atLeast, atMost, services } =
    options.words && !counted.length
      ? {
          corrections: correctionsFrom(tokens, options.words),
          atLeast: new Map<string, number>(),
          atMost: new Map<string, number>(),
          services: 0,
        }
      : await lookupWords(db, tokens, counted, options.scope);
  const bound = atLeast.get(tokens[0]!) ?? 0;
  const fewest = atMost.size && boundsOn ? Math.min(...atMost.values()) : undefined;
  const match = tokens
    .map((t) => `(${[`${t}:*`, ...(corrections.get(t) ?? [])].join(' | ')})`)
    .join(' & ');
  return {
    tokens,
    match,
    exact: tokens.join(' | '),
    prefix: tokens.map((t) => `${t}:*`).join(' | '),
    corrections,
    ...(counted.length === 1
      ? { atLeast: bound, share: services > 0 ? Math.min(1, bound / services) : 0 }
      : {}),
    ...(fewest !== undefined && services > 0 ? { shareAtMost: fewest / services } : {}),
  };
}

/**
 * The relevance of a document: whole words count most, then prefixes, then corrections; within
 * each, ts_rank's weights put the name (A) over descriptions (B) over address, city and
 * category labels (C).
 */
export function rankExpression(doc: ReturnType<typeof sql>, tq: TextQuery) {
  // One word without corrections (a prefix as typed): the prefix and the match are one query,
  // ranked once.
  if (tq.tokens.length === 1 && !tq.corrections.size) {
    return sql`(ts_rank(${doc}, to_tsquery('simple', ${tq.exact}))
      + 0.7 * ts_rank(${doc}, to_tsquery('simple', ${tq.prefix})))`;
  }
  return sql`(ts_rank(${doc}, to_tsquery('simple', ${tq.exact}))
    + 0.5 * ts_rank(${doc}, to_tsquery('simple', ${tq.prefix}))
    + 0.2 * ts_rank(${doc}, to_tsquery('simple', ${tq.match})))`;
}
