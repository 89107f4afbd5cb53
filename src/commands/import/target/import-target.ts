import type { BadRow } from '../map/bad-row.js';
import type { SqlType } from '../map/sql-type.js';
import type { RowFormat } from '../map/rows/row-format.js';
import type { PackedOutput } from '../../../engine/worker/packed-output.js';

/** Rows `from`..`to` (not included) of a chunk: `ends[r]` is where row r ends in `bytes`, the first at 0. */
export interface RowRun {
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
  readonly from: number;
  readonly to: number;
}

/** Where row `r` of a chunk starts. */
export const rowStart = (run: Pick<RowRun, 'ends'>, r: number) => (r === 0 ? 0 : run.ends[r - 1]!);

/** Appends the run's rows to `output` as they are (the chunk's buffer goes back to its worker). */
export function appendRun(output: PackedOutput, run: RowRun): void {
  const start = rowStart(run, run.from);
  const length = rowStart(run, run.to) - start;
  output.reserve(length).set(run.bytes.subarray(start, start + length), output.used);
  output.used += length;
}

/**
 * One atomic commit to an import's target: a chunk's rows, the rows it
 * rejected and the run's own records (checkpoint, run record, ledger span,
 * next id) go in together or not at all, so a kill leaves both or neither.
 */
export interface TargetBatch {
  /** One of the run's records, by its key (TableKey names them). */
  put(key: string, value: Uint8Array): void;
  del(key: string): void;
  /** Rows that take ids `firstId`.. in order, appended: in the target's rowFormat, as the workers wrote them. */
  putRows(firstId: number, run: RowRun): void;
  /**
   * The row of a --key value (a MessagePack array of its fields' text, whatever the rowFormat): a key new to
   * the table (`fresh`) gets `id`, a known one has its row replaced.
   */
  putKeyed(key: string, id: number, fresh: boolean, row: Uint8Array): void;
  /** A row that was not imported, by its line; `column` indexes the field that did not fit its type. */
  reject(line: number, reason: BadRow, column: number | undefined): void;
  readonly length: number;
  /** Commits everything at once; synced to disk unless told not to. */
  write(sync: boolean): Promise<void>;
}

/** The columns an import brings: the header's names, and the types its target should hold. */
export interface ColumnPlan {
  readonly names: readonly string[];
  readonly keyIndex: number | undefined;
  /** The types of a new table: given by --schema, or inferred from the file (called only when needed). */
  types(): readonly SqlType[];
}

/**
 * Where an import's rows go: LevelDB (the embedded default) or a database.
 * It also keeps the run's records beside the rows, so that where a run
 * resumes is read back from the same place its rows are.
 */
export interface ImportTarget {
  /** The table's name in a database (undefined: a LevelDB folder is one table). */
  readonly table: string | undefined;
  /** The significant digits a decimal column holds exactly. */
  readonly decimalDigits: number;
  /** The form the workers write rows in for it, but for a keyed import's (MessagePack). */
  readonly rowFormat: RowFormat;
  /** Once open: the columns the table holds in the very type stint declares for theirs (see ImportMapOptions). */
  readonly nativeColumns?: readonly boolean[];
  /**
   * Checks the table against the file's columns before any row (creating it when new) and answers the
   * column types the workers check each field against (undefined: an untyped table, every field text).
   */
  open(plan: ColumnPlan): Promise<readonly SqlType[] | undefined>;
  /** One of the run's records. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** The records whose key starts with `prefix`, in key order, a batch at a time. */
  entries(prefix: string): AsyncIterable<readonly (readonly [string, Uint8Array])[]>;
  batch(): TargetBatch;
  /** The id the next new row gets: after every row the table holds. */
  nextId(): Promise<number>;
  /** How many of the rows with these ids the table holds. */
  heldRows(ids: readonly number[]): Promise<number>;
  /** The ids the table's rows with these --key values have. */
  keyIds(keys: readonly string[]): Promise<Map<string, number>>;
  close(): Promise<void>;
}
