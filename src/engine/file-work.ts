import type { Fold } from './chunked-run.js';
import type { Framing } from './framing.js';
import type { Sink } from './sink.js';
import type { WireError } from './worker-protocol.js';

/** One file for processFile: where it is, how its records are framed, the worker-side map and the fold. */
export interface FileWork<P, S> {
  /** The input, relative to the caller's working directory. */
  readonly path: string;
  readonly framing: Framing;
  /** URL of the worker-side module whose `map(bytes, info)` export turns a chunk into a partial. */
  readonly mapModule: string;
  /** Passed to every map call as `info.options`. */
  readonly options?: unknown;
  /** The state before the first chunk (when there is no checkpoint). */
  initial(): S;
  /** Folds partials in file order; every yield is a safe point. */
  readonly fold: Fold<P, S>;
  readonly workers?: number;
  readonly chunkSize?: number;
  readonly maxRecordBytes?: number;
  /**
   * Where the output goes, exactly once: the run resumes from the sink's mark (not from a checkpoint), and
   * every safe point commits the state's output with its watermark there before it may stop. Only what the
   * fold yields is committed: output it returns without yielding is not.
   */
  readonly sink?: Sink<S>;
}

/** How processFile ended: `done`, `stopped` at a safe point (answer INCOMPLETE), or `failed` at `line`. */
export type FileOutcome<S> =
  | { readonly kind: 'done'; readonly state: S }
  | { readonly kind: 'stopped'; readonly state: S }
  | { readonly kind: 'failed'; readonly state: S; readonly error: WireError; readonly line: number };
