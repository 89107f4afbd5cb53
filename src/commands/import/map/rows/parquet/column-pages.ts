// One column of a chunk's rows as Parquet's data pages hold it: a bit per
// row saying whether it has a value (empty fields are NULL), and the values
// in Parquet's PLAIN encoding, cut into row groups of GROUP_ROWS rows. Its
// buffers are kept from chunk to chunk. Each kind of column (text-column.ts,
// number-columns.ts) turns a field's bytes into its value.

/**
 * Rows per row group: DuckDB's own. Loaded on several threads, each thread then fills whole row groups of the
 * table, written compressed as they fill (the import gives DuckDB two: see duckdb-target.ts).
 */
export const GROUP_ROWS = 122_880;

/** The physical types of Parquet a column is written in (the numbers its files give them). */
export const PhysicalType = {
  Boolean: 0,
  Int64: 2,
  Double: 5,
  ByteArray: 6,
} as const;
export type PhysicalType = (typeof PhysicalType)[keyof typeof PhysicalType];

/** Where a row group's values start in the column's values, and how many of its rows are NULL. */
export interface GroupStart {
  readonly at: number;
  nulls: number;
}

/** What a Parquet file is written from: a column's values, its bits of rows with a value, its row groups. */
export interface ColumnData {
  readonly physical: PhysicalType;
  readonly values: Uint8Array;
  /** The bytes of `values` in use. */
  readonly used: number;
  readonly defined: Uint8Array;
  readonly rows: number;
  readonly groups: readonly GroupStart[];
}

export abstract class ColumnPages implements ColumnData {
  abstract readonly physical: PhysicalType;
  values = new Uint8Array(1 << 16);
  /** The values, for writing numbers into them. */
  view = new DataView(this.values.buffer);
  used = 0;
  /** Bit r (least significant first) is set when row r has a value. */
  defined = new Uint8Array(1 << 10);
  rows = 0;
  readonly groups: GroupStart[] = [];
  /** Where the last row's value starts in `values`: what undoRow goes back to. */
  private lastRowAt = 0;

  /** Adds the value the field b[from, to) spells (never empty: an empty field is NULL). */
  abstract add(b: Uint8Array, from: number, to: number): void;

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

  /**
   * Takes the last row back out (another of its fields did not fit its column); answers whether it had a value.
   * A row group the row started is taken out with it.
   */
  undoRow(): boolean {
    this.rows--;
    const bit = 1 << (this.rows & 7);
    const valued = (this.defined[this.rows >> 3]! & bit) !== 0;
    if (valued) this.defined[this.rows >> 3]! &= ~bit;
    else this.groups.at(-1)!.nulls--;
    this.used = this.lastRowAt;
    if (this.rows % GROUP_ROWS === 0) this.groups.pop();
    return valued;
  }

  /** Counts a row that has a value (written at `used` before). */
  protected defineRow(): void {
    this.defined[this.rows >> 3]! |= 1 << (this.rows & 7);
    this.rows++;
  }

  /** Room for `bytes` more bytes of values and one more row's bit; the next row may start a row group. */
  protected room(bytes: number): void {
    this.lastRowAt = this.used;
    if (this.rows % GROUP_ROWS === 0) this.startGroup();
    if (this.used + bytes > this.values.length) {
      const bigger = new Uint8Array(Math.max(2 * this.values.length, this.used + bytes));
      bigger.set(this.values.subarray(0, this.used));
      this.values = bigger;
      this.view = new DataView(bigger.buffer);
    }
    if (this.rows >> 3 >= this.defined.length) {
      const bigger = new Uint8Array(2 * this.defined.length);
      bigger.set(this.defined);
      this.defined = bigger;
    }
  }

  protected startGroup(): void {
    this.groups.push({ at: this.used, nulls: 0 });
  }
}
