import type { ColumnSummary } from './column-stats.js';

/** What `stint analyze` establishes for one file. */
export interface FileAnalysis {
  readonly rows: number;
  readonly columns: readonly ColumnSummary[];
}

export type FileCitation = {
  readonly path: string;
  readonly size: number;
  readonly mtime: string;
  /** Byte range read: [first, end). */
  readonly bytes: readonly [number, number];
  /** Line range: first and last line. */
  readonly lines: readonly [number, number];
};
