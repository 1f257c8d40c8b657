/**
 * Geocoding benchmark: the built-in gazetteer (the geocoder when GEOCODER_URL is not set).
 *
 *   pnpm --filter @poruch/server exec tsx bench/geocode.bench.ts [--lookups 1000] [--quick]
 *
 * Measures building the gazetteer (loading every city once) and the time of `--lookups` lookups of
 * a full address, against the target of 1,000 lookups in under 1 s. Prints a Markdown table and
 * exits 1 when the target is missed.
 */
import { Gazetteer } from '../src/geocoding/gazetteer.js';
import { benchArgs, pct } from './common.js';

const args = benchArgs({ lookups: { type: 'string' } });
const LOOKUPS = Number(args.lookups ?? 1000);
const TARGET_MS = 1000;
const ADDRESSES = [
  'ul. Długa 5, 80-001 Gdańsk',
  'Marszałkowska 10, Warszawa',
  'Kraków',
  'Тернопіль',
  'Valencia',
  'Friedrichstraße 12, 10117 Berlin',
  'qwzx plmk 12',
];

const built = performance.now();
const gazetteer = new Gazetteer();
gazetteer.geocode('Warszawa'); // the first lookup loads the cities
const buildMs = performance.now() - built;

const each: number[] = [];
const started = performance.now();
for (let i = 0; i < LOOKUPS; i++) {
  const t = performance.now();
  gazetteer.geocode(ADDRESSES[i % ADDRESSES.length]!);
  each.push(performance.now() - t);
}
const totalMs = ((performance.now() - started) * 1000) / LOOKUPS;
each.sort((a, b) => a - b);

const ms = (n: number) => `${n.toFixed(n < 10 ? 3 : 0)} ms`;
const pass = totalMs < TARGET_MS;
console.log('| build | 1,000 lookups (target < 1 s) | p50 | p99 | max | result |');
console.log('| --- | --- | --- | --- | --- | --- |');
console.log(
  `| ${ms(buildMs)} | ${ms(totalMs)} | ${ms(pct(each, 50))} | ${ms(pct(each, 99))} | ${ms(each.at(-1)!)} | ${pass ? 'pass' : 'fail'} |`,
);
process.exitCode = pass ? 0 : 1;
