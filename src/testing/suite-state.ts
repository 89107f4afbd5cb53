// The state the sink conformance suite commits, and the run its killed child makes.
import type { SinkMark } from '../engine/sinks/sink.js';

/** A row of output: a key (written again, it replaces its row) and a value. */
export interface SuiteRow {
  readonly key: string;
  readonly value: string;
}

/** A row the run did not import, by its line, and why. */
export interface SuiteReject {
  readonly line: number;
  readonly reason: string;
}

/** The fold's state: the commits made so far (what a mark keeps), and the output of the next commit. */
export interface SuiteState {
  readonly commits: number;
  readonly rows: readonly SuiteRow[];
  readonly rejects: readonly SuiteReject[];
}

/** A value a sink's write must refuse by throwing, after writing the rows before it. */
export const POISON_VALUE = '\u0000poison';

/** The input every suite mark names. */
export const SUITE_INPUT = 'suite-input';

/** The run the killed child commits for, and the line it prints after each commit. */
export const KILLED_RUN = 'killed';
export const COMMITTED = 'committed';

const ROWS_PER_COMMIT = 25;

/** The state of a run's commit number `n` (from 1): 25 new rows, keyed in commit order. */
export function seriesCommit(n: number): SuiteState {
  const rows = Array.from({ length: ROWS_PER_COMMIT }, (_, r) =>
    ({ key: `${String(n).padStart(6, '0')}-${String(r).padStart(2, '0')}`, value: `value ${n}.${r}` }));
  return { commits: n, rows, rejects: [] };
}

/** The states of a run's first `count` commits. */
export const commitSeries = (count: number): SuiteState[] =>
  Array.from({ length: count }, (_, k) => seriesCommit(k + 1));

/** A suite mark as bytes: JSON of all but the state's output, which the store holds. */
export function encodeSuiteMark(mark: SinkMark<SuiteState>): Uint8Array {
  const { watermark, input, state } = mark;
  return Buffer.from(JSON.stringify({ watermark, input, commits: state.commits }));
}

export function decodeSuiteMark(bytes: Uint8Array): SinkMark<SuiteState> {
  const { watermark, input, commits } = JSON.parse(Buffer.from(bytes).toString()) as {
    watermark: SinkMark<SuiteState>['watermark']; input: string; commits: number;
  };
  return { watermark, input, state: { commits, rows: [], rejects: [] } };
}
