import { createHash, hash } from 'node:crypto';

const BLOCK = 64;
const DIGEST = 32;

/**
 * HMAC-SHA256 (RFC 2104) under one key, computed as two one-shot SHA-256 digests over pads made once
 * per key: H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ message)).
 *
 * Why not `createHmac`: in the service, a signed request's HMAC context cost about 9 µs of CPU
 * (OpenSSL 3 fetches the algorithm and allocates a MAC context per `createHmac`), more than the
 * rest of the signature check together; the one-shot digests reuse one cached digest and no
 * context. `hmac-sha256.test.ts` holds it to `createHmac` on random keys and messages.
 *
 * The pads are key material: they live in Buffers outside the JS heap, as the KeyObject they
 * replace did in native memory, and are never logged. Not safe to share between threads: one
 * scratch buffer per key is reused by every call (the service checks signatures on one thread).
 */
export class HmacSha256Key {
  /** K ⊕ ipad, then room for the message. */
  private inner: Buffer;
  /** K ⊕ opad, then the inner digest. */
  private readonly outer = Buffer.alloc(BLOCK + DIGEST);

  constructor(key: Uint8Array, messageRoom = 1024) {
    const k = key.length > BLOCK ? createHash('sha256').update(key).digest() : key;
    this.inner = Buffer.alloc(BLOCK + messageRoom);
    for (let i = 0; i < BLOCK; i++) {
      const byte = k[i] ?? 0;
      this.inner[i] = byte ^ 0x36;
      this.outer[i] = byte ^ 0x5c;
    }
  }

  /** The 32-byte MAC of the message's UTF-8 bytes. */
  digest(message: string): Buffer {
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit, so this check never under-counts.
    if (message.length * 3 > this.inner.length - BLOCK) this.grow(Buffer.byteLength(message, 'utf8'));
    const length = this.inner.write(message, BLOCK, 'utf8');
    hash('sha256', this.inner.subarray(0, BLOCK + length), 'buffer').copy(this.outer, BLOCK);
    return hash('sha256', this.outer, 'buffer');
  }

  private grow(bytes: number): void {
    if (bytes <= this.inner.length - BLOCK) return;
    const larger = Buffer.alloc(BLOCK + bytes);
    this.inner.copy(larger, 0, 0, BLOCK);
    this.inner.fill(0);
    this.inner = larger;
  }
}
