import type { ColumnSummary } from './map/column-stats.js';

/** What `stint analyze` establishes for one file. */
export interface FileAnalysis {
  readonly rows: number;
  /** The byte between fields, detected or forced: `,` `\t` `;` or `|`. */
  readonly delimiter: string;
  readonly columns: readonly ColumnSummary[];
}

export type FileCitation = {
  /** `gzip` for a compressed file (its size and bytes are the compressed file's; lines are decompressed lines). */
  readonly compression?: 'gzip';
  readonly path: string;
  readonly size: number;
  readonly mtime: string;
  /** Byte range read: [first, end). */
  readonly bytes: readonly [number, number];
  /** Line range: first and last line. */
  readonly lines: readonly [number, number];
};
