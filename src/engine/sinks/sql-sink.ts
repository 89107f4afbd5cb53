import type { SinkMark } from './sink.js';

/** The table each SQL sink keeps its runs' marks in, one row per run, unless told another. */
export const MARKS_TABLE = 'stint_sink_marks';

/**
 * What sqliteSink, postgresSink and duckdbSink need: the author's open
 * connection, the run it serves, how a state's output is written, and how a
 * mark is stored. `write` runs inside the commit's transaction, before the
 * mark: whatever it writes commits with the mark or not at all.
 */
export interface SqlSinkSpec<S, D> {
  /** One connection (not a pool: a transaction's statements must share it). */
  readonly db: D;
  /** The run's own key (its idempotency key): the row of its mark. */
  readonly run: string;
  /** Writes the output the state holds (rows, rejected rows) on `db`, inside the transaction. */
  write(db: D, state: S): void | Promise<void>;
  /** The mark as stored: what the state needs to resume, without its output. */
  encode(mark: SinkMark<S>): Uint8Array;
  decode(bytes: Uint8Array): SinkMark<S>;
  /** The marks' table (default stint_sink_marks), created when absent. */
  readonly marks?: string;
}

/** A table's name in double quotes, as SQL spells any name. */
export const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * `work` between BEGIN and COMMIT on one connection (`run` runs a statement on it); a failure rolls it back
 * and is thrown again.
 */
export async function inTransaction(run: (sql: string) => Promise<unknown>, work: () => Promise<void>): Promise<void> {
  await run('BEGIN TRANSACTION');
  try {
    await work();
    await run('COMMIT');
  } catch (error) {
    await run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
