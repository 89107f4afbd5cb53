import { ErrorCode } from '../contract/error-code.js';
import { ProgressUnit } from '../contract/vocabulary/progress-unit.js';
import type { CommandContext } from '../runtime/program/command-spec.js';
import { defaultWorkerCount, openChunkPool } from './chunk-pool.js';
import { DEFAULT_MAX_RECORD_BYTES, runChunked, type Fold, type Watermark } from './chunked-run.js';
import type { Framing } from './framing.js';
import { fingerprintOf, inspectInput } from './input-file.js';
import { resumeFromSink, sinkSafePoint } from './sink-run.js';
import type { Sink } from './sink.js';
import { workerFailedError } from './worker-failed.js';
import type { WireError } from './worker-protocol.js';

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

export type FileOutcome<S> =
  | { readonly kind: 'done'; readonly state: S }
  | { readonly kind: 'stopped'; readonly state: S }
  | { readonly kind: 'failed'; readonly state: S; readonly error: WireError; readonly line: number };

interface Saved<S> {
  readonly state: S;
  readonly watermark: Watermark;
}

/**
 * One file through the pool with everything an interruptible command needs
 * around its fold: the input checked, the checkpoint restored (or discarded
 * when the input changed), progress in bytes, a checkpoint at safe points,
 * and a stop honoured there.
 */
export async function processFile<P, S>(ctx: CommandContext, work: FileWork<P, S>): Promise<FileOutcome<S>> {
  const input = inspectInput(work.path, ctx.cwd);
  if (input.kind === 'bad') throw input.error;
  const fingerprint = fingerprintOf([input]);
  const restored = work.sink
    ? await resumeFromSink(ctx, work.sink, fingerprint, input)
    : (await ctx.restore<Saved<S>>(fingerprint))?.state;
  const pool = await openChunkPool(work.workers ?? defaultWorkerCount());
  try {
    const outcome = await runChunked({
      pool,
      path: input.absolute,
      fileSize: input.size,
      fileIno: input.ino,
      framing: work.framing,
      mapModule: work.mapModule,
      options: work.options,
      chunkSize: work.chunkSize ?? 1024 * 1024,
      maxRecordBytes: work.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
      from: restored?.watermark ?? { offset: 0, line: 1 },
      state: restored?.state ?? work.initial(),
      fold: work.fold,
      safePoint: work.sink
        ? sinkSafePoint(ctx, work.sink, fingerprint, input.size)
        : (state, watermark) => ctx.checkpoint<Saved<S>>(
          { state, watermark }, { done: watermark.offset, total: input.size, unit: ProgressUnit.Bytes },
        ),
    });
    if (outcome.kind === 'failed' && outcome.error.code === ErrorCode.WorkerFailed) throw workerFailedError(outcome.error);
    return outcome.kind === 'failed' ? { kind: 'failed', state: outcome.state, error: outcome.error, line: outcome.line } : { kind: outcome.kind, state: outcome.state };
  } finally {
    await pool.close();
  }
}
