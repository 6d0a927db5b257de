/**
 * The sandbox engine's WebAssembly memory, and the share of it one run may take (issue 38,
 * Medium 1). QuickJS's own malloc limit cannot be the bound: its allocator adds
 * `malloc_usable_size(ptr)` to the bytes it counts, and its Emscripten branch answers 0, so the
 * limit counts 8 bytes of overhead per allocation whatever its size (a single request larger than
 * the limit is still refused, many smaller ones are not: 38 × 50 MB typed arrays passed a 64 MiB
 * limit). What every allocation does need is room in the linear memory, and the memory grows only
 * through `WebAssembly.Memory.prototype.grow`, called by the allocator's `sbrk`. So the worker
 * gives the engine a memory of its own (`wasmMemory`) whose `grow` refuses to pass the run's cap:
 * the allocation fails, QuickJS throws "out of memory", and the run ends with
 * `service.tooLarge.script.memory`.
 *
 * A run may grow the engine's memory by at most its `memoryBytes` (the allocator asks for a large
 * block as a whole, so a typed array's bytes are growth), and may use what the engine already had
 * free: at most 16 MiB of it (a fresh worker has about 11 MiB), or its `memoryBytes` when smaller.
 * Free memory beyond that, left by an earlier and larger run, is held out of the run's reach for
 * its duration (allocated in chunks, freed after). QuickJS's own count of the run's objects is
 * also sampled against the limit (engine.ts). WebAssembly memory never shrinks, so the runner
 * replaces a worker whose memory grew past its bound (runner.ts).
 */

const PAGE = 65_536;
/** Free memory a run may use beyond its growth, at most (a fresh worker has about 11 MiB). */
const FREE_SLACK = 16 * 1024 * 1024;
/** Chunk size when measuring or holding free memory (smaller holes stay usable; they are few). */
const CHUNK = 64 * 1024;
/** At most this many chunks are held (1 GiB): a bound on the loop, never reached in practice. */
const MAX_CHUNKS = 16_384;
/** Pages the QuickJS module declares for its memory import (16 MiB). */
const INITIAL_PAGES = 256;

/**
 * The parts of `WebAssembly.Memory` used here (the service's TypeScript lib has no WebAssembly
 * types; Node has the global).
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(deltaPages: number): number;
}
const WasmMemoryClass = (
  globalThis as unknown as {
    WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory };
  }
).WebAssembly.Memory;

/** The allocator of the engine's module (Emscripten's `_malloc` / `_free`). */
export interface EngineAllocator {
  _malloc(size: number): number;
  _free(ptr: number): void;
}

/** One run's share: whether growth was refused, and how much the run made the engine hold. */
export interface RunMemory {
  /** An allocation of the run needed more memory than its cap allowed. */
  readonly refused: boolean;
  /** Bytes the run grew the engine's memory by, at most (what it cost the process). */
  peakBytes(): number;
  /** Gives back what was held out of the run's reach; the memory may grow freely again. */
  end(): void;
}

export class EngineMemory {
  readonly memory: WasmMemory;
  private cap = Number.POSITIVE_INFINITY;
  private refusals = 0;
  private peak = 0;
  private allocator?: EngineAllocator;
  /** Bytes in use while no run is active (the module's data, stack and caches). */
  staticBytes = 0;

  /** `maxBytes`: the memory's hard maximum, whatever a run's cap says. */
  constructor(maxBytes: number) {
    const maximum = Math.max(INITIAL_PAGES, Math.ceil(maxBytes / PAGE));
    const memory = new WasmMemoryClass({ initial: INITIAL_PAGES, maximum });
    const grow = memory.grow.bind(memory);
    // Emscripten's heap resize calls `grow` and treats a throw as "no memory": malloc answers NULL.
    Object.defineProperty(memory, 'grow', {
      value: (delta: number): number => {
        const wanted = memory.buffer.byteLength + delta * PAGE;
        if (wanted > this.cap) {
          this.refusals += 1;
          throw new RangeError('The script memory limit refuses this growth.');
        }
        const previous = grow(delta);
        this.peak = Math.max(this.peak, memory.buffer.byteLength);
        return previous;
      },
    });
    this.memory = memory;
  }

  get sizeBytes(): number {
    return this.memory.buffer.byteLength;
  }

  /** Called once the module is loaded and warm: measures what the engine holds between runs. */
  attach(allocator: EngineAllocator): void {
    this.allocator = allocator;
    const held = this.holdFree(Number.POSITIVE_INFINITY);
    this.staticBytes = this.sizeBytes - held.length * CHUNK;
    this.release(held);
  }

  /** Starts a run that may hold `limitBytes` (see the rule above). */
  beginRun(limitBytes: number): RunMemory {
    const free = this.sizeBytes - this.staticBytes;
    const slack = Math.min(FREE_SLACK, limitBytes);
    const held = free > slack ? this.holdFree(free - slack) : [];
    const startSize = this.sizeBytes;
    this.cap = startSize + limitBytes;
    // Growth refused while holding free memory above is not the run's.
    this.refusals = 0;
    this.peak = startSize;
    const refusedNow = () => this.refusals > 0;
    return {
      get refused() {
        return refusedNow();
      },
      peakBytes: () => Math.max(0, this.peak - startSize),
      end: () => {
        this.release(held);
        this.cap = Number.POSITIVE_INFINITY;
      },
    };
  }

  /** Allocates chunks of free memory, without growing, until `bytes` are held or none is left. */
  private holdFree(bytes: number): number[] {
    if (!this.allocator) return [];
    const saved = this.cap;
    this.cap = this.sizeBytes;
    const held: number[] = [];
    try {
      while (held.length * CHUNK < bytes && held.length < MAX_CHUNKS) {
        const ptr = this.allocator._malloc(CHUNK);
        if (!ptr) break;
        held.push(ptr);
      }
    } finally {
      this.cap = saved;
    }
    return held;
  }

  private release(held: number[]): void {
    for (const ptr of held) this.allocator?._free(ptr);
    held.length = 0;
  }
}
