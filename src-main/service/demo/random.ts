/** sfc32: a small, fast, seedable PRNG, so the same --seed always yields the same data. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** `stream`: independent sequences from one seed (the seeder's blocks); 0 is the seed's own. */
  constructor(seed: number, stream = 0) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88 ^ Math.imul(stream, 0x85ebca6b);
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    const t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    const r = (t + this.d) | 0;
    this.c = (this.c + r) | 0;
    return (r >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

/**
 * Picks index i with probability ∝ 1/(i+1)^s: a few common names, a long tail of rare ones, as in
 * real populations. Precomputes the cumulative table once; each pick is a binary search.
 */
export class ZipfPicker<T> {
  private readonly cumulative: Float64Array;

  constructor(
    private readonly items: readonly T[],
    s = 1.05,
  ) {
    this.cumulative = new Float64Array(items.length);
    let sum = 0;
    items.forEach((_, i) => {
      sum += 1 / Math.pow(i + 1, s);
      this.cumulative[i] = sum;
    });
    for (let i = 0; i < items.length; i++) this.cumulative[i]! /= sum;
  }

  pick(rng: Rng): T {
    const x = rng.next();
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return this.items[lo] as T;
  }
}
