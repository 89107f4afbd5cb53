// The ranges of remote objects read lately, kept by the fetch thread so that a
// range two readers both ask for is fetched once. Bounded by bytes: enough
// for several ranges (the chunks the workers read, those read ahead, and the
// chunks before them, which are read again when a chunk is mapped again from
// its true start: fetched anew, those were a fifth of a 1 GB object more).
// The oldest go first. Their memory is used again for the next ranges: fresh
// memory costs a page fault per 4 KiB on first touch, which cost the fetch
// thread more than the network did (about 0.3 s per 100 MB).
import { WORD_SLACK, wordOffset } from './word-offset.js';

/** Bytes kept at most while RANGES_KEPT of the longest range fit in them. */
const KEPT_BYTES = 64 * 1024 * 1024;
/** As many ranges of the longest length as are kept (two workers' chunks, two read ahead, and four before). */
const RANGES_KEPT = 8;
/** Bytes kept at most whatever the ranges' length: eight of analyze's 16 MiB chunks, each with its lookahead. */
const KEPT_BYTES_MOST = RANGES_KEPT * 17 * 1024 * 1024;
/** Buffers are made in steps of this, so that one freed serves a range a little longer than its last. */
const BUFFER_STEP = 256 * 1024;

interface Kept {
  readonly version: string;
  readonly from: number;
  readonly bytes: Uint8Array;
}

export class RangeCache {
  private kept: Kept[] = [];
  private size = 0;
  /** The longest range kept so far: the bound holds RANGES_KEPT of it. */
  private longest = 0;
  /** Memory of ranges no longer kept, to be filled again. */
  private free: ArrayBuffer[] = [];
  /** The memory this cache made: only that is used again (a store's answer may be a view of memory shared). */
  private readonly made = new WeakSet<ArrayBuffer>();

  /**
   * Copies into `into` the bytes kept for `version` from `from` on, as far as kept ranges run on unbroken and
   * `into` holds; answers how many.
   */
  read(version: string, from: number, into: Uint8Array): number {
    let at = from;
    const to = from + into.length;
    while (at < to) {
      const hit = this.kept.find((k) => k.version === version && k.from <= at && at < k.from + k.bytes.length);
      if (!hit) break;
      const end = Math.min(to, hit.from + hit.bytes.length);
      into.set(hit.bytes.subarray(at - hit.from, end - hit.from), at - from);
      at = end;
    }
    return at - from;
  }

  /**
   * A buffer for the `length` bytes from the object's byte `from` on, to be kept (at their word offset, so that
   * copying them out moves whole words): the smallest memory freed that fits without wasting more than two
   * steps, when some does.
   */
  buffer(from: number, length: number): Uint8Array {
    const offset = wordOffset(from);
    const needed = length + WORD_SLACK;
    const index = this.smallestFree(needed);
    if (index >= 0) return new Uint8Array(this.free.splice(index, 1)[0]!, offset, length);
    const memory = new ArrayBuffer(Math.max(1, Math.ceil(needed / BUFFER_STEP)) * BUFFER_STEP);
    this.made.add(memory);
    return new Uint8Array(memory, offset, length);
  }

  /** Keeps `bytes` (which the cache then owns: memory it made is used again once they go). */
  keep(version: string, from: number, bytes: Uint8Array): void {
    this.longest = Math.max(this.longest, bytes.length);
    const bound = Math.min(KEPT_BYTES_MOST, Math.max(KEPT_BYTES, RANGES_KEPT * this.longest));
    if (bytes.length > bound) return;
    this.kept.push({ version, from, bytes });
    this.size += bytes.length;
    while (this.size > bound) {
      const gone = this.kept.shift()!.bytes;
      this.size -= gone.length;
      const memory = gone.buffer;
      const mine = memory instanceof ArrayBuffer && this.made.has(memory);
      if (mine && this.freeBytes() < bound) this.free.push(memory);
    }
  }

  /** The index of the smallest memory freed that holds `length` bytes with at most two steps to spare; else -1. */
  private smallestFree(length: number): number {
    let best = -1;
    this.free.forEach((memory, k) => {
      const fits = memory.byteLength >= length && memory.byteLength <= length + 2 * BUFFER_STEP;
      if (fits && (best < 0 || memory.byteLength < this.free[best]!.byteLength)) best = k;
    });
    return best;
  }

  private freeBytes(): number {
    return this.free.reduce((sum, memory) => sum + memory.byteLength, 0);
  }
}
