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

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
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
