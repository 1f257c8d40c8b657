import fc from 'fast-check';
import { z } from 'zod';

/**
 * zod → fast-check, through zod 4's JSON Schema (`z.toJSONSchema`, input side: what a client
 * sends). Two arbitraries per schema:
 * - `valid`: values the schema describes (refinements aside), with boundary lengths and numbers;
 * - `mixed`: the same, where any node may instead be a boundary value just outside the rules or
 *   junk (a wrong type, null, a huge or odd unicode string, an array, an object, extra keys).
 */

type JsonSchema = Record<string, any>;

/** The JSON Schema of a route's zod schema (null when the route has none). */
export function jsonSchemaOf(schema: unknown): JsonSchema | null {
  if (!schema || typeof schema !== 'object' || !('_zod' in schema)) return null;
  return z.toJSONSchema(schema as z.ZodType, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
}

/**
 * Characters a text field must refuse or keep as they are, in every position the fuzzer fills
 * with text: U+0000 (PostgreSQL refuses it), lone surrogates high and low (no UTF-8 for them),
 * the other C0 controls, DEL and C1 controls (refused), tab, line feed and carriage return (kept in
 * descriptions), bidirectional controls and marks (U+202E, U+2066–U+2069, U+200F: kept), the BOM,
 * the line separator and a noncharacter.
 */
export const ODD_CHARACTERS = [
  '\u0000',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  '\u0001',
  '\u0007',
  '\u0008',
  '\u000B',
  '\u000C',
  '\u001B',
  '\u001F',
  '\u007F',
  '\u0080',
  '\u0085',
  '\u009F',
  '\t',
  '\n',
  '\r',
  '\u202E',
  '\u202D',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200E',
  '\u200F',
  '\u061C',
  '\uFEFF',
  '\u2028',
  '\uFFFF',
];
export const oddCharacter = fc.constantFrom(...ODD_CHARACTERS);

/** One unit of fuzzed text: mostly printable (ASCII, any grapheme), one in five odd. */
export const textUnit = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: oddCharacter },
);

/** A unit of text a schema takes as it is: printable, or a bidirectional mark, BOM, U+2028. */
const keptUnit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...ODD_CHARACTERS.slice(ODD_CHARACTERS.indexOf('\u202E'))),
  },
);

/** A value with one odd character put in at some place (an otherwise valid e-mail, URL, name…). */
const withOddCharacter = (value: fc.Arbitrary<string>) =>
  fc.tuple(value, oddCharacter, fc.nat()).map(([v, c, n]) => {
    const at = n % (v.length + 1);
    return v.slice(0, at) + c + v.slice(at);
  });

/**
 * A valid value with one odd character put into one of its strings (any field, at any place):
 * the request every rule but one would take, the one that reaches the handler if a field is not
 * checked. Values without a string come as they are.
 */
export function withOddText(value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(value, fc.nat(), oddCharacter, fc.nat()).map(([v, n, c, at]) => {
    const put = (text: string) => {
      const i = at % (text.length + 1);
      return text.slice(0, i) + c + text.slice(i);
    };
    if (typeof v === 'string') return put(v);
    // Generated values are fast-check's: changed only in a copy.
    const copy = structuredClone(v);
    const slots: [Record<string, unknown>, string][] = [];
    const walk = (node: unknown) => {
      if (node === null || typeof node !== 'object') return;
      for (const [k, child] of Object.entries(node)) {
        if (typeof child === 'string') slots.push([node as Record<string, unknown>, k]);
        else walk(child);
      }
    };
    walk(copy);
    if (slots.length) {
      const [node, key] = slots[n % slots.length]!;
      node[key] = put(node[key] as string);
    }
    return copy;
  });
}

/** Strings a parser or a database is known to trip on. */
const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uFEFF',
  '\uD800',
  '\uDFFF',
  '🇺🇦',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  '\u202Eevil',
  '\u2066\u2067\u2068\u2069\u200F\u200E',
  'שלום\u200F مرحبا',
  '\u0001\u001F\u007F\u0080\u009F',
  'a\tb\nc\r\nd',
  '\uDBFF\uDFFF',
  '\uDFFF\uDBFF',
  '😀\uDE00',
  '\uD83D',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  "' OR '1'='1' --",
  'Robert"); DROP TABLE accounts;--',
  '%',
  '%00',
  '%E0%A4%A',
  '../../../../etc/passwd',
  '\\',
  '${jndi:ldap://x}',
  '{{7*7}}',
  'NaN',
  'Infinity',
  '-0',
  '1e999',
  '9007199254740993',
  'null',
  'undefined',
  'true',
  '__proto__',
  'constructor',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'not-a-uuid',
  'a'.repeat(300),
];

/**
 * Long strings: past every field limit (the longest, a campaign, takes 50,000 characters), some
 * past the body limit (65,536 in the fuzz server), some long with an odd character at the end.
 */
export const HUGE = [
  'a'.repeat(5_000),
  'x'.repeat(50_001),
  `${'ї'.repeat(5_000)}\u0000`,
  `${'b'.repeat(20_000)}\uD800`,
  '\uDC00'.repeat(3_000),
  '\u202E'.repeat(10_000),
  'я'.repeat(20_001),
  '😀'.repeat(17_000),
  'x'.repeat(70_000),
];

const smallString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: textUnit, maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const junkOf = (huge: boolean): fc.Arbitrary<unknown> =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom<unknown>(
        null,
        true,
        false,
        0,
        -1,
        1.5,
        2 ** 31,
        2 ** 53 + 2,
        -1e308,
        1e308,
      ),
    },
    { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
    { weight: 2, arbitrary: smallString },
    { weight: huge ? 1 : 0, arbitrary: fc.constantFrom(...HUGE) },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(smallString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
    },
  );
/** A value of any wrong shape, huge strings included (bodies). */
export const junk = junkOf(true);
/**
 * The same without the huge strings (query strings: a URL over 16 KB is refused by Node's parser
 * before the server sees it; a few raw long queries test that instead).
 */
export const smallJunk = junkOf(false);

/** Extra keys an attacker adds to an object. */
const extraKeysOf = (junk: fc.Arbitrary<unknown>) =>
  fc.dictionary(
    fc.oneof(
      fc.constantFrom(
        'isAdmin',
        'isSuper',
        'type',
        'ownerId',
        'status',
        'id',
        'role',
        'constructor',
      ),
      fc.string({ minLength: 1, maxLength: 12 }),
    ),
    junk,
    { minKeys: 1, maxKeys: 3 },
  );

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (typeof schema.$ref !== 'string') return schema;
  const path = schema.$ref.replace(/^#\//, '').split('/');
  let target: any = root;
  for (const part of path) target = target?.[part];
  return (target as JsonSchema) ?? {};
}

function stringArbitrary(s: JsonSchema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 40, 80));
  switch (s.format) {
    case 'email':
      return fc.emailAddress();
    case 'uuid':
      return fc.uuid();
    case 'uri':
    case 'url':
      return fc.webUrl({ withQueryParameters: true, withFragments: true });
    case 'date-time':
      return fc
        .date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
  }
  if (typeof s.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= 10_000);
    } catch {
      // A pattern fast-check cannot generate from: plain strings below.
    }
  }
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ unit: 'grapheme', minLength, maxLength }),
    // Odd characters every text keeps: bidirectional controls and marks, the BOM, U+2028.
    fc.string({ unit: keptUnit, minLength, maxLength }),
    // Exactly at the limits.
    fc.constantFrom('a'.repeat(minLength), 'ї'.repeat(maxLength)),
  );
}

function numberArbitrary(s: JsonSchema): fc.Arbitrary<number> {
  const integer = s.type === 'integer';
  const min =
    s.minimum ??
    (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-9) : -1e6);
  const max =
    s.maximum ??
    (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-9) : 1e6);
  const lo = Math.max(min, Number.MIN_SAFE_INTEGER);
  const hi = Math.min(max, Number.MAX_SAFE_INTEGER);
  const inRange = integer
    ? fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) })
    : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
  return fc.oneof(
    { weight: 4, arbitrary: inRange },
    { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
  );
}

/** Values just outside the schema's rules (lengths, ranges, counts), or junk. */
function boundary(s: JsonSchema, junk: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const values: unknown[] = [];
  if (s.type === 'string') {
    if (s.minLength) values.push('b'.repeat(s.minLength - 1));
    if (s.maxLength !== undefined)
      values.push('є'.repeat(s.maxLength + 1), 'x'.repeat(s.maxLength + 1));
    values.push('   ', '\t\n');
  }
  if (s.type === 'number' || s.type === 'integer') {
    if (s.minimum !== undefined) values.push(s.minimum - 1, s.minimum - 0.5);
    if (s.maximum !== undefined) values.push(s.maximum + 1, s.maximum + 0.5);
    values.push(Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER - 2, 1e21, 5e-324);
  }
  if (s.type === 'array' && s.maxItems !== undefined && s.maxItems < 200) {
    values.push(Array.from({ length: s.maxItems + 1 }, () => 'x'));
  }
  if (s.enum) values.push(`${String(s.enum[0])}_`, String(s.enum[0]).toUpperCase());
  const options: fc.Arbitrary<unknown>[] = [junk];
  if (values.length) options.push(fc.constantFrom(...values));
  // A value the schema would take but for one odd character (a NUL inside an e-mail, a UUID…).
  if (s.type === 'string') options.push(withOddCharacter(stringArbitrary(s)));
  return fc.oneof(...options);
}

/** The arbitrary of a JSON Schema node; `mixed` puts boundary values and junk at every node. */
export function arbitraryOf(
  schema: JsonSchema,
  options: Options,
  root: JsonSchema = schema,
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = resolve(schema, root);
  const inner = exact(s, options, root, depth);
  if (!options.mixed) return inner;
  const junk = options.junk ?? defaultJunk;
  return fc.oneof(
    { weight: 6, arbitrary: inner },
    { weight: 1, arbitrary: boundary(s, junk) },
    { weight: 1, arbitrary: junk },
  );
}

export interface Options {
  /** Boundary values and junk at every node. */
  mixed: boolean;
  /** The junk to use (defaults to `junk`, with huge strings). */
  junk?: fc.Arbitrary<unknown>;
}
const defaultJunk = junk;

function exact(
  s: JsonSchema,
  options: Options,
  root: JsonSchema,
  depth: number,
): fc.Arbitrary<unknown> {
  const { mixed } = options;
  const junk = options.junk ?? defaultJunk;
  const child = (c: JsonSchema) => arbitraryOf(c, options, root, depth + 1);
  if (depth > 8) return junk;
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map(child));
  if (Array.isArray(s.allOf) && s.allOf.length) {
    const merged = Object.assign({}, ...s.allOf.map((p: JsonSchema) => resolve(p, root)));
    return exact(merged, options, root, depth);
  }
  if (Array.isArray(s.type)) {
    return fc.oneof(...s.type.map((type: string) => exact({ ...s, type }, options, root, depth)));
  }
  switch (s.type) {
    case 'string':
      return stringArbitrary(s);
    case 'number':
    case 'integer':
      return numberArbitrary(s);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = Math.min(s.minItems ?? 0, 10);
      const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 4, 4));
      return fc.array(s.items ? child(s.items) : junk, { minLength, maxLength });
    }
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
      const model = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, child(v)]));
      const required = ((s.required ?? []) as string[]).filter((k) => k in properties);
      let record: fc.Arbitrary<Record<string, unknown>> = fc.record(model, {
        requiredKeys: required,
      });
      if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        record = fc
          .tuple(
            record,
            fc.dictionary(fc.string({ maxLength: 10 }), child(s.additionalProperties), {
              maxKeys: 3,
            }),
          )
          .map(([a, b]) => ({ ...b, ...a }));
      }
      if (!mixed) return record;
      return fc
        .tuple(record, fc.option(extraKeysOf(junk), { freq: 4 }))
        .map(([value, extra]) => (extra ? { ...value, ...extra } : value));
    }
    default:
      // Anything (z.unknown, a coerced query value): a scalar.
      return fc.oneof(smallString, fc.integer(), fc.boolean());
  }
}
