import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CATEGORY_KEYS, COUNTRY_CODES, TRANSLATIONS } from '@poruch/core';

/**
 * Every translation key the site's code uses exists in both ua and en_GB. A key is a literal
 * `section.rest` (section = a top-level section of the resources) in a key position: the first
 * argument of `t(…)` (both branches of a ternary there too), a route/menu/dialog field that holds
 * a key (`title:`, `description:`, `name:`, `header:`, `message:`, …) or a `title=`/`text=` JSX
 * attribute. Template literals `section.${…}` are checked through their known families
 * (categories, countries).
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
/** The widgets' code, which the site renders too (the map, the dashboard, the profile). */
const WIDGETS_SRC = path.resolve(SRC, '../../widgets/src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === '__tests__' ? [] : files(full);
    return /\.(ts|tsx)$/.test(name) && !/\.(d|test)\.tsx?$/.test(name) ? [full] : [];
  });
}

function lookup(resource: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>(
      (node, part) =>
        node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined,
      resource,
    );
}

const sections = new Set(Object.keys(TRANSLATIONS.ua));
/** A quoted key literal: group 1 the quote, group 2 the key. */
const LIT = '([\'"`])([a-z][a-z0-9_]*\\.[A-Za-z0-9_.]+)\\1';
/** The same with groups 3 and 4, for the second branch of a ternary. */
const LIT2 = LIT.replace('\\1', '\\3');
const KEY_POSITIONS = [
  // t('key') and t(<newline> 'key', …)
  new RegExp(`\\bt\\(\\s*${LIT}`, 'g'),
  // t(cond ? 'a' : 'b')
  new RegExp(`\\bt\\([^()]*?\\?\\s*${LIT}\\s*:\\s*${LIT2}`, 'g'),
  // fields of the route table, the menu, dialogs and toasts that hold keys
  new RegExp(
    `\\b(?:title|description|name|header|message|summary|detail|label)(?:Key)?:\\s*${LIT}`,
    'g',
  ),
  // <Section title="…" text="…" />
  new RegExp(`\\b(?:title|text)=${LIT}`, 'g'),
];
const TEMPLATE = /`([a-z][a-z0-9_]*)\.\$\{/g;

function usedKeys(): { keys: Map<string, string[]>; families: Map<string, string[]> } {
  const keys = new Map<string, string[]>();
  const families = new Map<string, string[]>();
  for (const file of files(SRC)) {
    const text = readFileSync(file, 'utf8');
    const rel = path.relative(SRC, file);
    for (const re of KEY_POSITIONS) {
      for (const m of text.matchAll(re)) {
        for (const key of [m[2], m[4]]) {
          if (!key) continue;
          const section = key.split('.')[0]!;
          // File names and hosts are not keys: only known sections count.
          if (!sections.has(section) || /\.(js|ts|tsx|css|svg|png|json)$/.test(key)) continue;
          keys.set(key, [...(keys.get(key) ?? []), rel]);
        }
      }
    }
    for (const m of text.matchAll(TEMPLATE)) {
      families.set(m[1]!, [...(families.get(m[1]!) ?? []), rel]);
    }
  }
  return { keys, families };
}

/** The keys a template-literal family can produce. */
const FAMILY_KEYS: Record<string, readonly string[]> = {
  category: [...CATEGORY_KEYS, 'all', 'empty'].map((c) => `category.${c}`),
  country_name: COUNTRY_CODES.map((c) => `country_name.${c}`),
};

describe('translation keys used by the site', () => {
  const { keys, families } = usedKeys();

  it('finds the keys in the code', () => {
    expect(keys.size).toBeGreaterThan(50);
    expect(keys.has('cookies.accept')).toBe(true);
  });

  for (const locale of ['ua', 'en_GB'] as const) {
    it(`every literal key exists in ${locale}`, () => {
      const missing = [...keys]
        .filter(([key]) => typeof lookup(TRANSLATIONS[locale], key) !== 'string')
        .map(([key, where]) => `${key} (${[...new Set(where)].join(', ')})`);
      expect(missing).toEqual([]);
    });

    it(`every key family built at run time exists in ${locale}`, () => {
      const missing: string[] = [];
      for (const [family, where] of families) {
        const all = FAMILY_KEYS[family];
        if (!all) {
          // An unknown family: at least its section must exist.
          if (!sections.has(family)) missing.push(`${family}.* (${where.join(', ')})`);
          continue;
        }
        for (const key of all)
          if (typeof lookup(TRANSLATIONS[locale], key) !== 'string') missing.push(key);
      }
      expect(missing).toEqual([]);
    });
  }
});

/** The placeholders of a translation: `{name}` (the configured syntax) and `{{name}}`. */
const placeholders = (text: string): string[] => [
  ...new Set([...text.matchAll(/\{\{?\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}?\}/g)].map((m) => m[1]!)),
];

/** The text from `open` (an opening bracket) to its closing bracket, strings and templates skipped. */
function bracketed(text: string, open: number): string {
  const pairs: Record<string, string> = { '(': ')', '{': '}', '[': ']' };
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (pairs[c]) stack.push(pairs[c]);
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (!stack.length) return text.slice(open, i + 1);
    }
  }
  return text.slice(open);
}

/** The top-level parts of a bracketed list, split at its commas. */
function topLevelParts(list: string): string[] {
  const inner = list.slice(1, -1);
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c === "'" || c === '"' || c === '`') {
      for (i++; i < inner.length && inner[i] !== c; i++) if (inner[i] === '\\') i++;
    } else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/**
 * The parameter names a call passes: the keys of an object literal (`{ salary: v.salary }`,
 * `{ name }`), none without a second argument, or null when they cannot be read (a variable, a
 * spread), which the check leaves to the browser walk.
 */
function passedParams(args: string[]): string[] | null {
  const second = args[1];
  if (second === undefined) return [];
  if (!second.startsWith('{')) return null;
  const names: string[] = [];
  for (const entry of topLevelParts(bracketed(second, 0))) {
    if (entry.startsWith('...')) return null;
    const name = /^['"]?([A-Za-z_$][\w$]*)['"]?\s*(?::|$|\()/.exec(entry)?.[1];
    if (!name) return null;
    names.push(name);
  }
  return names;
}

/**
 * Every `t('key', …)` in the site's and the widgets' code whose translation has placeholders,
 * with the placeholders the call leaves unfilled: each would show as `{salary}` on the page.
 */
function unfilledPlaceholders(): string[] {
  const found: string[] = [];
  const call = /\bt\(/g;
  for (const file of [...files(SRC), ...files(WIDGETS_SRC)]) {
    const text = readFileSync(file, 'utf8');
    const rel = path.relative(path.resolve(SRC, '../..'), file);
    for (const m of text.matchAll(call)) {
      const args = topLevelParts(bracketed(text, m.index + m[0].length - 1));
      // The key is a literal, or a ternary of literals: each branch is checked.
      const keys = [...(args[0] ?? '').matchAll(/(['"])([a-z][a-z0-9_]*\.[A-Za-z0-9_.]+)\1/g)]
        .map((k) => k[2]!)
        .filter((k) => sections.has(k.split('.')[0]!));
      const passed = passedParams(args);
      if (passed === null) continue;
      const line = text.slice(0, m.index).split('\n').length;
      for (const key of keys) {
        for (const locale of ['ua', 'en_GB'] as const) {
          const value = lookup(TRANSLATIONS[locale], key);
          if (typeof value !== 'string') continue;
          const missing = placeholders(value).filter((p) => !passed.includes(p));
          if (missing.length)
            found.push(`${rel}:${line} t('${key}') leaves {${missing.join('}, {')}} (${locale})`);
        }
      }
    }
  }
  return [...new Set(found)];
}

describe('placeholders in the code', () => {
  it('reads the parameters of a call', () => {
    const args = (src: string) => passedParams(topLevelParts(bracketed(src, 0)));
    expect(args(`('vacancies.salary')`)).toEqual([]);
    expect(args(`('vacancies.salary', { salary: v.salary })`)).toEqual(['salary']);
    expect(args(`('a.b', { name, count: f(1, 2), 'x': 1 })`)).toEqual(['name', 'count', 'x']);
    expect(args(`('a.b', params)`)).toBeNull();
    expect(args(`('a.b', { ...rest })`)).toBeNull();
    expect(placeholders('Зарплата: {salary}, {{count}} {salary}')).toEqual(['salary', 'count']);
  });

  it('every t() of a text with placeholders passes a value for each', () => {
    expect(unfilledPlaceholders()).toEqual([]);
  });
});
