// The ranges of remote objects read lately, kept by the fetch thread so that a
// range two readers both ask for is fetched once. Bounded by bytes; the oldest
// go first.

/** Bytes kept at most: a few chunks of every worker's (chunks are 4 MiB by default). */
const KEPT_BYTES = 64 * 1024 * 1024;

interface Kept {
  readonly version: string;
  readonly from: number;
  readonly bytes: Uint8Array;
}

export class RangeCache {
  private kept: Kept[] = [];
  private size = 0;

  /** A copy of the bytes kept for `version` from `from` on, up to `to`, as far as kept ranges run on unbroken. */
  from(version: string, from: number, to: number): Uint8Array {
    const pieces: Uint8Array[] = [];
    let at = from;
    for (;;) {
      const hit = this.kept.find((k) => k.version === version && k.from <= at && at < k.from + k.bytes.length);
      if (!hit || at >= to) break;
      const end = Math.min(to, hit.from + hit.bytes.length);
      pieces.push(hit.bytes.subarray(at - hit.from, end - hit.from));
      at = end;
    }
    const held = new Uint8Array(at - from);
    let offset = 0;
    for (const piece of pieces) {
      held.set(piece, offset);
      offset += piece.length;
    }
    return held;
  }

  keep(version: string, from: number, bytes: Uint8Array): void {
    if (bytes.length > KEPT_BYTES) return;
    this.kept.push({ version, from, bytes });
    this.size += bytes.length;
    while (this.size > KEPT_BYTES) this.size -= this.kept.shift()!.bytes.length;
  }
}
