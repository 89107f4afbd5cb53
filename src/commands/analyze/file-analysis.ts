import type { ColumnSummary } from './map/column-stats.js';
import type { Stat } from './stats-pick.js';
import type { Compression } from './compression.js';

/** What `stint analyze` establishes for one file. */
export interface FileAnalysis {
  readonly rows: number;
  /** The byte between fields, detected or forced: `,` `\t` `;` or `|`. */
  readonly delimiter: string;
  /** The statistics shown, when `--stats` chose some (each column then has only their fields). */
  readonly stats?: readonly Stat[];
  readonly columns: readonly ColumnSummary[];
}

export type FileCitation = {
  /** `gzip` for a compressed file (its size and bytes are the compressed file's; lines are decompressed lines). */
  readonly compression?: Compression;
  readonly path: string;
  readonly size: number;
  /** For an http:// or https:// input: its Last-Modified. */
  readonly mtime: string;
  /** For an http:// or https:// input: the ETag of the version read. */
  readonly etag?: string;
  /** Byte range read: [first, end). */
  readonly bytes: readonly [number, number];
  /** Line range: first and last line. */
  readonly lines: readonly [number, number];
};
