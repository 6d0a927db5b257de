import { randomInt } from 'node:crypto';

/** The smallest table (slots); a power of two, as every capacity is. */
const MIN_CAPACITY = 1024;
/** Occupied share of the slots at which an insert first rebuilds (dropping expired entries). */
const MAX_LOAD = 0.7;
/** Occupied share a rebuild sizes the table for, so the next rebuild is at least this far off. */
const TARGET_LOAD = 0.35;
/** Occupied share above which a prune shrinks a table no further (it never grows one). */
const PRUNE_LOAD = 0.5;

/** Per-process hash seed, so nobody can choose nonces that collide in this process's tables. */
const SEED = randomInt(2 ** 31);

/** A nonce's key: its two halves as base-36 numbers (case folded), and its hash. Set by `parse`. */
let keyHi = 0;
let keyLo = 0;
let keyHash = 0;

/**
 * Reads a nonce (16 letters or digits, any case: NONCE_PATTERN) into `keyHi`, `keyLo` and
 * `keyHash` without allocating. Each half of 8 base-36 digits is below 36^8 < 2^42, exact in a
 * double; `keyHi` is stored plus one so that 0 marks an empty slot.
 */
function parse(nonce: string): void {
  if (nonce.length !== 16) throw new Error('a nonce has 16 characters');
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < 16; i++) {
    const c = nonce.charCodeAt(i) | 0x20; // folds A-Z onto a-z, leaves digits alone
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x7a ? c - 0x57 : -1;
    if (digit < 0) throw new Error('a nonce is letters and digits');
    if (i < 8) hi = hi * 36 + digit;
    else lo = lo * 36 + digit;
  }
  keyHi = hi + 1;
  keyLo = lo;
  keyHash = hashOf(keyHi, keyLo);
}

/** murmur3's mixing of one 32-bit word into the hash. */
function mix(h: number, word: number): number {
  let k = Math.imul(word, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  h ^= Math.imul(k, 0x1b873593);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** The hash of a stored key (both halves below 2^43: their low and high 32-bit words are mixed). */
function hashOf(hi: number, lo: number): number {
  let h = mix(SEED, hi >>> 0);
  h = mix(h, (hi / 0x1_0000_0000) >>> 0);
  h = mix(h, lo >>> 0);
  h = mix(h, (lo / 0x1_0000_0000) >>> 0);
  // murmur3's finaliser: every input bit moves every output bit, so the low bits index well.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * One app's remembered nonces → their expiry (Unix ms), in typed arrays: an open-addressing hash
 * table with linear probing, 24 bytes a slot, outside the JavaScript heap.
 *
 * Why not a `Map<string, number>`: a busy signing app can have hundreds of thousands of nonces
 * in its window, and each cost the map about 117 bytes of heap (the 16-character string, the
 * entry, a boxed expiry, the prune buckets), and the service about 330 bytes of resident memory
 * once the garbage collector's headroom is counted. Here an entry costs 24 bytes a slot at a load
 * between 0.35 and 0.7, and nothing for the collector to trace.
 *
 * Nothing is deleted in place (so no tombstones are needed): expired entries stay, counted and
 * harmless (a lookup reports their expiry, which the caller compares with the time), until a
 * rebuild drops them — when an insert would pass `MAX_LOAD`, or on `prune`.
 */
export class NonceTable {
  private capacity = MIN_CAPACITY;
  private hi = new Float64Array(MIN_CAPACITY);
  private lo = new Float64Array(MIN_CAPACITY);
  private expires = new Float64Array(MIN_CAPACITY);
  /** Occupied slots: entries remembered, expired ones included until a rebuild. */
  private used = 0;

  get size(): number {
    return this.used;
  }

  /** The expiry remembered for a nonce, live or not; undefined when it is not here. */
  get(nonce: string): number | undefined {
    parse(nonce);
    const slot = this.find();
    return this.hi[slot] === 0 ? undefined : this.expires[slot];
  }

  /**
   * Remembers a nonce until `expires`, replacing what was remembered for it. An insert that would
   * pass `MAX_LOAD` first rebuilds the table, without the entries expired before `now`.
   */
  set(nonce: string, expires: number, now: number): void {
    parse(nonce);
    let slot = this.find();
    if (this.hi[slot] === 0) {
      if (this.used + 1 > this.capacity * MAX_LOAD) {
        // Sized for the kept entries and this one at TARGET_LOAD: with nothing expired, it doubles.
        this.rebuild(
          (e) => e >= now,
          (kept) => capacityFor(kept + 1, TARGET_LOAD),
        );
        slot = this.find();
      }
      this.hi[slot] = keyHi;
      this.lo[slot] = keyLo;
      this.used++;
    }
    this.expires[slot] = expires;
  }

  /** Drops the entries that expired before `now`; returns how many. */
  prune(now: number): number {
    const before = this.used;
    // Never larger than now: the table is below MAX_LOAD already. (Sized at TARGET_LOAD, as it was
    // before the eleventh session, housekeeping doubled every table above 0.35: two 1M-slot
    // tables became 2M-slot ones in a bench run.)
    this.rebuild(
      (e) => e >= now,
      (kept) => Math.min(this.capacity, capacityFor(kept, PRUNE_LOAD)),
    );
    return before - this.used;
  }

  /** The slot of the parsed key: where it is, or the empty slot where it would go. */
  private find(): number {
    const mask = this.capacity - 1;
    let slot = keyHash & mask;
    for (;;) {
      const hi = this.hi[slot];
      if (hi === 0 || (hi === keyHi && this.lo[slot] === keyLo)) return slot;
      slot = (slot + 1) & mask;
    }
  }

  /**
   * Copies the entries that `keep` into a table of `sizeFor(kept)` slots: sized by what is kept,
   * not by what was there, so a table whose entries mostly expired shrinks rather than grows. When
   * everything is kept at the same size, nothing is copied.
   */
  private rebuild(keep: (expires: number) => boolean, sizeFor: (kept: number) => number): void {
    const [hi, lo, expires, capacity] = [this.hi, this.lo, this.expires, this.capacity];
    let kept = 0;
    for (let i = 0; i < capacity; i++) if (hi[i] !== 0 && keep(expires[i]!)) kept++;
    const size = sizeFor(kept);
    if (size === capacity && kept === this.used) return;
    this.capacity = size;
    this.hi = new Float64Array(size);
    this.lo = new Float64Array(size);
    this.expires = new Float64Array(size);
    this.used = 0;
    const mask = size - 1;
    for (let i = 0; i < capacity; i++) {
      if (hi[i] === 0 || !keep(expires[i]!)) continue;
      let slot = hashOf(hi[i]!, lo[i]!) & mask;
      while (this.hi[slot] !== 0) slot = (slot + 1) & mask;
      this.hi[slot] = hi[i]!;
      this.lo[slot] = lo[i]!;
      this.expires[slot] = expires[i]!;
      this.used++;
    }
  }
}

/**
 * The smallest power of two (at least MIN_CAPACITY) whose `load` share, rounded down, holds all but
 * one of `entries`. The slack of one makes growth double: it happens at the first insert past
 * MAX_LOAD, one entry more than TARGET_LOAD of twice the size, and without the slack every growth
 * quadrupled (a load of 0.175, about 140 bytes a nonce, which put a 1M bench run's service at 315 MB).
 */
function capacityFor(entries: number, load: number): number {
  let size = MIN_CAPACITY;
  while (Math.floor(size * load) + 1 < entries) size *= 2;
  return size;
}
