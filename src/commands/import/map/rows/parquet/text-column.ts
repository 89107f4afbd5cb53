// One column of a chunk's rows as Parquet's data pages hold it: a bit per
// row saying whether it has a value (empty fields are NULL), and the values
// in Parquet's PLAIN encoding, each its length (4 bytes, little-endian) and
// its UTF-8 bytes; cut into row groups of GROUP_ROWS rows. Its buffers are
// kept from chunk to chunk.

/**
 * Rows per row group: DuckDB's own. Loaded on several threads, each thread then fills whole row groups of the
 * table, written compressed as they fill (the import gives DuckDB one thread today: see duckdb-target.ts).
 */
export const GROUP_ROWS = 122_880;

/** Values this short are copied byte by byte: cheaper than a view and a copy call. */
const SHORT = 32;

/** Where a row group's values start in the column's values, and how many of its rows are NULL. */
export interface GroupStart {
  readonly at: number;
  nulls: number;
}

export class TextColumn {
  values = new Uint8Array(1 << 16);
  used = 0;
  /** Bit r (least significant first) is set when row r has a value. */
  defined = new Uint8Array(1 << 10);
  rows = 0;
  readonly groups: GroupStart[] = [];

  /** Empties the column for the next chunk (the bits were set by the last one). */
  clear(): void {
    this.defined.fill(0, 0, (this.rows + 7) >> 3);
    this.used = 0;
    this.rows = 0;
    this.groups.length = 0;
  }

  addNull(): void {
    this.room(0);
    this.groups.at(-1)!.nulls++;
    this.rows++;
  }

  /** Adds the value b[from, to). */
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
    this.defined[this.rows >> 3]! |= 1 << (this.rows & 7);
    this.rows++;
  }

  /** Room for `bytes` more bytes of values and one more row's bit; the next row may start a row group. */
  private room(bytes: number): void {
    if (this.rows % GROUP_ROWS === 0) this.groups.push({ at: this.used, nulls: 0 });
    if (this.used + bytes > this.values.length) {
      const bigger = new Uint8Array(Math.max(2 * this.values.length, this.used + bytes));
      bigger.set(this.values.subarray(0, this.used));
      this.values = bigger;
    }
    if (this.rows >> 3 >= this.defined.length) {
      const bigger = new Uint8Array(2 * this.defined.length);
      bigger.set(this.defined);
      this.defined = bigger;
    }
  }
}
