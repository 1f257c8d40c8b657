/**
 * A small deterministic pseudo-random generator (mulberry32): the same seed always gives the
 * same data, so benchmarks and bug reports can be reproduced.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A standard normal variate (Box–Muller). */
  gaussian(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Up to n distinct items, in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = [...items];
    const out: T[] = [];
    while (out.length < n && copy.length) {
      out.push(copy.splice(Math.floor(this.next() * copy.length), 1)[0]!);
    }
    return out;
  }
}

/** A cumulative-weight table for drawing indexes in proportion to weights. */
export class WeightedPicker<T> {
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(
    readonly items: readonly T[],
    weight: (item: T) => number,
  ) {
    this.cumulative = new Float64Array(items.length);
    let sum = 0;
    items.forEach((item, i) => {
      sum += Math.max(0, weight(item));
      this.cumulative[i] = sum;
    });
    this.total = sum;
  }

  pickIndex(random: Random): number {
    const target = random.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  pick(random: Random): T {
    return this.items[this.pickIndex(random)]!;
  }
}

/**
 * A UUID (version 4 layout) made of the seed, a stream number and the index: stable across runs
 * and unique by construction, so rows can reference each other before they are inserted.
 */
export function seededUuid(seed: number, stream: number, index: number): string {
  const hex = (n: number, width: number) =>
    (n >>> 0).toString(16).padStart(width, '0').slice(-width);
  const high = Math.floor(index / 2 ** 24);
  const low = index % 2 ** 24;
  return `${hex(seed, 8)}-${hex(stream, 4)}-4${hex(high, 3)}-8${hex(stream >>> 16, 3)}-${hex(0, 6)}${hex(low, 6)}`;
}
