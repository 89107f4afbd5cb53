import type { Progress } from '../contract/incomplete.js';
import type { WorkerPool } from './chunk-pool.js';
import type { ChunkedOutcome, Fold, Watermark } from './chunked-run.js';
import type { Framing } from './worker/framing.js';
import type { Sink } from './sinks/sink.js';

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
  /** Where the records begin (after a header, say) when nothing is resumed; default the first byte, line 1. */
  readonly from?: Watermark;
  /** What a safe point reports as progress (rows, say); default the bytes of the input read so far. */
  progress?(state: S, watermark: Watermark): Progress;
  /** Folds partials in file order; every yield is a safe point. */
  readonly fold: Fold<P, S>;
  readonly workers?: number;
  /**
   * Caps each worker thread's young generation (MiB, V8's `maxYoungGenerationSizeMb`): a map whose partials
   * are large keeps a lower peak memory on long inputs, for a few more minor collections. Default: V8's.
   */
  readonly workerYoungGenerationMb?: number;
  /** Worker threads opened ahead (openWorkerPool, while a store opens, say): used, not opened, and left open. */
  readonly pool?: Promise<WorkerPool>;
  readonly chunkSize?: number;
  readonly maxRecordBytes?: number;
  /**
   * Where the output goes, exactly once: the run resumes from the sink's mark (not from a checkpoint), and
   * every safe point commits the state's output with its watermark there before it may stop. Only what the
   * fold yields is committed: output it returns without yielding is not.
   */
  readonly sink?: Sink<S>;
  /**
   * With a sink: fold the next chunk while the last commit is in flight (one at a time); a stop and the end
   * wait for it. Only for a fold that never reads its own output back from the store.
   */
  readonly commitAhead?: boolean;
}

/**
 * How processFile ended: `done`, `stopped` at a safe point (answer INCOMPLETE), or `failed` at `line`;
 * `watermark` is where the folded records end (a stop's is where the next call begins).
 */
export type FileOutcome<S> = ChunkedOutcome<S>;
