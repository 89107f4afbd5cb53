// A chunk's typed rows as the Parquet file a commit's rows reach DuckDB in
// (parquet/parquet-file.ts): every column as text, which DuckDB casts to the
// column's type as it inserts, as it cast the fields of the CSV it read
// before. An empty field is NULL (a typed import has no empty text); a
// timestamp is spelled the way DuckDB's cast reads it.
import type { PackedOutput } from '../../../../engine/worker/packed-output.js';
import type { PackedRecord } from '../../../../engine/worker/csv-records.js';
import { TextColumn } from './parquet/text-column.js';
import { writeParquetFile } from './parquet/parquet-file.js';
import { duckdbTimestamp } from './duckdb-timestamp.js';

export class DuckParquetRows {
  private readonly columns: TextColumn[];
  private rows = 0;

  /** `timestamps` marks the timestamp columns. */
  constructor(private readonly timestamps: readonly boolean[]) {
    this.columns = timestamps.map(() => new TextColumn());
  }

  /** Empties the columns for the next chunk. */
  clear(): void {
    for (const column of this.columns) column.clear();
    this.rows = 0;
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
    this.rows++;
  }

  /** Writes the rows appended since the last clear as one Parquet file at the end of `output`. */
  writeFile(output: PackedOutput): void {
    writeParquetFile(output, this.columns, this.rows);
  }
}

function addTimestamp(column: TextColumn, b: Uint8Array, from: number, to: number): void {
  const text = Buffer.from(b.buffer, b.byteOffset + from, to - from).toString();
  const spelled = duckdbTimestamp(text);
  if (spelled === text) return column.add(b, from, to);
  const bytes = Buffer.from(spelled);
  column.add(bytes, 0, bytes.length);
}
