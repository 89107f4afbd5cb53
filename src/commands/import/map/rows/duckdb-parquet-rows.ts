// A chunk's typed rows as the Parquet file a commit's rows reach DuckDB in
// (parquet/parquet-file.ts). An integer, decimal or boolean column the table
// holds as BIGINT, DOUBLE or BOOLEAN is written in that type, with the value
// DuckDB's cast of its text gives; any other column as text, which DuckDB
// casts as it inserts. An empty field is NULL (a typed import has no empty
// text); a timestamp is spelled the way DuckDB's cast reads it.
import type { PackedOutput } from '../../../../engine/worker/packed-output.js';
import type { PackedRecord } from '../../../../engine/worker/csv-records.js';
import { SqlType } from '../sql-type.js';
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
  private readonly timestamps: readonly boolean[];

  /** The columns' types, and those the table holds in the type stint declares for theirs (`native`). */
  constructor(types: readonly SqlType[], native: readonly boolean[]) {
    this.columns = types.map((type, k) => columnOf(type, native[k] === true));
    this.timestamps = types.map((type) => type === SqlType.Timestamp);
  }

  /** Empties the columns for the next chunk. */
  clear(): void {
    for (const column of this.columns) column.clear();
  }

  append(record: PackedRecord): void {
    const b = record.bytes;
    for (let k = 0; k < this.columns.length; k++) {
      const column = this.columns[k]!;
      const from = record.fieldStarts[k]!;
      const to = record.fieldEnds[k]!;
      if (from === to) column.addNull();
      else if (this.timestamps[k]) addTimestamp(column, b, from, to);
      else column.add(b, from, to);
    }
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
