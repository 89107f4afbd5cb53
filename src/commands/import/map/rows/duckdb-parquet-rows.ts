// A chunk's typed rows as the Parquet file a commit's rows reach DuckDB in
// (parquet/parquet-file.ts). An integer, decimal or boolean column the table
// holds as BIGINT, DOUBLE or BOOLEAN is written in that type, with the value
// DuckDB's cast of its text gives; any other column as text, which DuckDB
// casts as it inserts. An empty field is NULL (a typed import has no empty
// text); a timestamp is spelled the way DuckDB's cast reads it. Each field
// is checked against its column's type as it is added, so that a decimal is
// read once; a row with a field that does not fit is taken back out.
import type { PackedOutput } from '../../../../engine/worker/packed-output.js';
import type { PackedRecord } from '../../../../engine/worker/csv-records.js';
import { fits, fitsDecimal, SqlType } from '../sql-type.js';
import { lastNumberValue } from '../value-class.js';
import type { ColumnPages } from './parquet/column-pages.js';
import { TextColumn } from './parquet/text-column.js';
import { BooleanColumn, DoubleColumn, Int64Column } from './parquet/number-columns.js';
import { writeParquetFile } from './parquet/parquet-file.js';
import { duckdbTimestamp } from './duckdb-timestamp.js';

/** A column of `type`, written in its own type (`native`) or as text. */
function columnOf(type: SqlType, native: boolean): ColumnPages {
  if (!native) return new TextColumn();
  switch (type) {
    case SqlType.Integer: return new Int64Column();
    case SqlType.Decimal: return new DoubleColumn();
    case SqlType.Boolean: return new BooleanColumn();
    default: return new TextColumn();
  }
}

export class DuckParquetRows {
  private readonly columns: ColumnPages[];
  private readonly types: readonly SqlType[];

  /**
   * The columns' types, those the table holds in the type stint declares for theirs (`native`), and the
   * significant digits a decimal column holds.
   */
  constructor(types: readonly SqlType[], native: readonly boolean[], private readonly precision: number) {
    this.columns = types.map((type, k) => columnOf(type, native[k] === true));
    this.types = types;
  }

  /** Empties the columns for the next chunk. */
  clear(): void {
    for (const column of this.columns) column.clear();
  }

  /**
   * Adds the record's fields to their columns, each checked against its column's type as it is: answers the first
   * column whose field does not fit (the row is then taken back out of the columns before it), or -1.
   */
  append(record: PackedRecord): number {
    const b = record.bytes;
    for (let k = 0; k < this.columns.length; k++) {
      if (!this.put(k, b, record.fieldStarts[k]!, record.fieldEnds[k]!)) {
        for (let j = 0; j < k; j++) this.columns[j]!.undoRow();
        return k;
      }
    }
    return -1;
  }

  /** Adds the field b[from, to) to column k, when it fits the column's type. */
  private put(k: number, b: Uint8Array, from: number, to: number): boolean {
    const column = this.columns[k]!;
    const type = this.types[k]!;
    if (from === to) column.addNull();
    else if (type === SqlType.Text) column.add(b, from, to);
    else if (column instanceof DoubleColumn) return this.putDouble(column, b, from, to);
    else if (!fits(type, b, from, to, this.precision)) return false;
    else if (type === SqlType.Timestamp) addTimestamp(column, b, from, to);
    else column.add(b, from, to);
    return true;
  }

  /** A decimal is checked and read in one pass: the number its check read is the one written. */
  private putDouble(column: DoubleColumn, b: Uint8Array, from: number, to: number): boolean {
    if (!fitsDecimal(b, from, to, this.precision)) return false;
    column.addNumber(lastNumberValue(b, from, to));
    return true;
  }

  /** Writes the rows appended since the last clear as one Parquet file at the end of `output`. */
  writeFile(output: PackedOutput): void {
    // Every column holds every row (a file has at least one column: a CSV header names one or more).
    writeParquetFile(output, this.columns, this.columns[0]!.rows);
  }
}

function addTimestamp(column: ColumnPages, b: Uint8Array, from: number, to: number): void {
  const text = Buffer.from(b.buffer, b.byteOffset + from, to - from).toString();
  const spelled = duckdbTimestamp(text);
  if (spelled === text) return column.add(b, from, to);
  const bytes = Buffer.from(spelled);
  column.add(bytes, 0, bytes.length);
}
