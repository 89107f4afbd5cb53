// A text column's values: each its length (4 bytes, little-endian) and its UTF-8 bytes.
import { ColumnPages, PhysicalType } from './column-pages.js';

/** Values this short are copied byte by byte: cheaper than a view and a copy call. */
const SHORT = 32;

export class TextColumn extends ColumnPages {
  readonly physical = PhysicalType.ByteArray;

  add(b: Uint8Array, from: number, to: number): void {
    const length = to - from;
    this.room(length + 4);
    const out = this.values;
    let o = this.used;
    out[o++] = length & 0xff;
    out[o++] = (length >>> 8) & 0xff;
    out[o++] = (length >>> 16) & 0xff;
    out[o++] = length >>> 24;
    if (length >= SHORT) {
      out.set(b.subarray(from, to), o);
      o += length;
    } else {
      for (let i = from; i < to; i++) out[o++] = b[i]!;
    }
    this.used = o;
    this.defineRow();
  }
}
