import { rowsInScanner } from './map/csv-scanner.js';

/**
 * The chunk analyze aims at when --chunk-size is not given. Each chunk's partial statistics (every column's) cross
 * to the main thread and are merged there, so that cost is per chunk and per column: on 2 cores a 300 MB file of
 * 200 columns took 37 s of CPU in 1 MiB chunks and 10 s in 16 MiB ones, a 1 GB file of 8 columns 15 s and 11 s.
 * Larger ones gained little more and held more memory.
 */
export const TARGET_CHUNK_BYTES = 16 * 1024 * 1024;
/** Chunk sizes are whole multiples of this, and at least it. */
const CHUNK_GRAIN = 64 * 1024;
/** Rows per chunk vary with the rows' widths: a chunk aims at this share of what the scanner can hold. */
const ROWS_SHARE = 0.5;

/**
 * The chunk size of a file whose records take `recordBytes` on average (csv-record-width.ts) and have `width`
 * fields: the target, or less for a table so wide that the scanner could not keep every column's statistics for
 * so many rows (2,000 columns: about 250 rows). A function of the file alone (not of the statistics asked, the
 * columns shown or the machine), since where chunks end moves the estimates: one file, one answer.
 */
export function analyzeChunkSize(recordBytes: number, width: number): number {
  const rows = rowsInScanner(width);
  const fitting = rows === Infinity ? TARGET_CHUNK_BYTES : Math.floor(rows * ROWS_SHARE) * recordBytes;
  const size = Math.min(TARGET_CHUNK_BYTES, fitting);
  return Math.max(CHUNK_GRAIN, Math.floor(size / CHUNK_GRAIN) * CHUNK_GRAIN);
}
