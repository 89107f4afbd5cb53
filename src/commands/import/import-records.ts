import type { ErrorDetail } from '../../contract/envelope.js';
import type { ExitCode } from '../../contract/exit-code.js';
import type { CsvHeader } from '../csv-header.js';
import type { Watermark } from '../../engine/chunked-run.js';
import type { BadRow } from './map/bad-row.js';
import type { TargetBatch } from './target/import-target.js';

/** The version of the records below; a table written by another version is read as having none. */
export const RECORD_FORMAT = 2;

/** A run of consecutive imported rows: the established part of the outcome. */
export interface ImportedRange {
  firstLine: number;
  lastLine: number;
  rows: number;
  firstId: number;
  lastId: number;
}

/** Folded state; everything but `pending` is stored with the rows it describes. */
export interface ImportState {
  nextId: number;
  imported: number;
  badCount: number;
  /** The first bad rows; `column` indexes the field that did not fit its type. */
  badSample: { line: number; reason: BadRow; column?: number }[];
  ranges: ImportedRange[];
  rangeOpen: boolean;
  failed?: { line: number; reason: BadRow };
  /** This chunk's writes, not yet committed (never stored). */
  pending: TargetBatch | undefined;
}

export type SavedState = Omit<ImportState, 'pending'>;

/** What a run under one idempotency key has committed: stored in the table beside its rows. */
interface RunProgress {
  readonly version: number;
  readonly argumentsDigest: string;
  readonly fingerprint: unknown;
  /** Where the committed rows end in the input: the next call continues from here. */
  readonly watermark: Watermark;
  readonly state: SavedState;
}

/** A paused (or interrupted, or cancelled) run: the rows up to the watermark are committed. */
export interface ImportCheckpoint extends RunProgress {
  readonly header: CsvHeader;
}

/** A finished run: the same key answers it again, or continues it when the file has grown. */
export interface RunRecord extends RunProgress {
  readonly exitCode: ExitCode;
  readonly data: Record<string, unknown>;
  readonly error?: ErrorDetail;
}
