import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';

/** 24 lower-case hex characters. */
export const OBJECT_ID_PATTERN = /^[0-9a-f]{24}$/;

/**
 * Makes 24-hex ids that sort in creation order: 12 hex of milliseconds, then a 48-bit counter that
 * starts at a random point and only grows. Within one process ids are strictly increasing even when
 * the clock stands still or steps back (the last timestamp is kept), so `_id` order is insertion
 * order and keyset paging on `_id` is safe.
 */
export class ObjectIdFactory {
  private lastMs = 0;
  private counter: bigint;
  private static readonly COUNTER_MAX = (1n << 48n) - 1n;

  constructor(private readonly clock: Clock) {
    // Leave headroom so a burst never wraps the counter within one millisecond.
    this.counter = BigInt('0x' + randomBytes(6).toString('hex')) >> 8n;
  }

  next(): string {
    const now = Math.max(this.clock.now(), this.lastMs);
    if (now > this.lastMs) {
      this.lastMs = now;
      this.counter = BigInt('0x' + randomBytes(6).toString('hex')) >> 8n;
    } else {
      this.counter++;
      if (this.counter > ObjectIdFactory.COUNTER_MAX) {
        this.lastMs++;
        this.counter = 0n;
      }
    }
    return this.lastMs.toString(16).padStart(12, '0') + this.counter.toString(16).padStart(12, '0');
  }
}
