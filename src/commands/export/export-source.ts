import type { ExportFormat } from './export-format.js';

/** One read batch of rows, written out in the export's format. */
export interface SourceBatch {
  /** The rows' lines (a view valid until the next batch). */
  readonly bytes: Buffer;
  /** The position of the batch's last row: the next run reads after it. */
  readonly last: string;
  readonly rows: number;
}

/** A table an export reads: a LevelDB folder, or a table of a database. */
export interface ExportSource {
  readonly columns: readonly string[];
  /** The rows to come, when known (ids are never reused or deleted, so a table's last id counts them). */
  readonly total: number | undefined;
  /** A digest that changes with every import commit, so a paused export never goes on over other rows. */
  version(): Promise<string>;
  /** The rows in order (after the row `after` when given), a read batch at a time, as lines of `format`. */
  batches(format: ExportFormat, after: string | undefined): AsyncIterable<SourceBatch>;
  close(): Promise<void>;
}
