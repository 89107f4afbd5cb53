import { setImmediate as nextTurn } from 'node:timers/promises';
import { ErrorCode } from '../contract/error-code.js';
import type { Progress } from '../contract/incomplete.js';
import { StintError } from '../contract/stint-error.js';
import { ProgressUnit } from '../contract/vocabulary/progress-unit.js';
import type { EngineContext, SafePointContext } from './engine-context.js';
import { choosePool } from './pool-choice.js';
import { DEFAULT_MAX_RECORD_BYTES, runChunked, type SafePoint, type Watermark } from './chunked-run.js';
import type { FileOutcome, FileWork } from './file-work.js';
import type { ReadableFile } from './process-files.js';
import { versionOf } from './input-file.js';
import { workerFailedError } from './worker-failed.js';
import type { Sink, SinkMark } from './sinks/sink.js';

/** What a safe point reports: the work's own measure, or the bytes of the input read so far. */
export type ProgressOf<S> = (state: S, watermark: Watermark) => Progress;

const bytesOf = (total: number): ProgressOf<unknown> => (_, watermark) =>
  ({ done: watermark.offset, total, unit: ProgressUnit.Bytes });

/**
 * The sink's mark for this run, checked against the input (output committed
 * from other bytes must not be continued over these: that would mix two
 * files), and reported as the progress so far.
 */
export async function resumeFromSink<S>(
  ctx: SafePointContext,
  sink: Sink<S>,
  fingerprint: unknown,
  input: { readonly path: string; readonly size: number },
  progressOf: ProgressOf<S> = bytesOf(input.size),
): Promise<SinkMark<S> | undefined> {
  const mark = await sink.resume();
  if (mark === undefined) return undefined;
  if (mark.input !== JSON.stringify(fingerprint)) {
    throw new StintError(ErrorCode.InputChanged, `${input.path} changed since this run committed output from it`, {
      context: { path: input.path },
      fix_required: 'Restore the file, or start a new run with a new --idempotency-key (committed output stays)',
    });
  }
  const { done, total, unit, rows } = progressOf(mark.state, mark.watermark);
  ctx.progress(done, total, unit, rows);
  return mark;
}

/** A sink's safe points, and the last commit (in flight when the fold commits ahead). */
export interface SinkCommits<S> {
  readonly safePoint: SafePoint<S>;
  /** Resolves once the last commit is durable; rejects with its failure. */
  settled(): Promise<void>;
}

/**
 * A safe point with a sink: commit the output and its watermark, report
 * progress once it is durable, and answer whether to stop. Ahead, the fold
 * goes on while one commit is in flight; a stop waits for it.
 */
export function sinkCommits<S>(
  ctx: SafePointContext, sink: Sink<S>, fingerprint: unknown, how: { progressOf: ProgressOf<S>; ahead: boolean },
): SinkCommits<S> {
  const input = JSON.stringify(fingerprint);
  let inflight: Promise<void> = Promise.resolve();
  async function safePoint(state: S, watermark: Watermark): Promise<boolean> {
    await inflight;
    ctx.pace?.safePoint();
    // Taken now: the fold may change its state while the commit is in flight.
    const { done, total, unit, rows } = how.progressOf(state, watermark);
    // Measured from before the call: a store that commits synchronously spends its time inside it.
    const committing = ctx.now();
    inflight = sink.commit({ watermark, state, input }).then(async () => {
      const took = ctx.now() - committing;
      // A store that never leaves the thread (PGlite's wasm) would starve the timers: the budget, the heartbeat.
      await nextTurn();
      // Published first: a stop answered on the commit's word answers with it.
      ctx.progress(done, total, unit, rows);
      ctx.pace?.committed(took);
    });
    // Its failure (a full disk) is thrown where it is awaited; until then it must not count as unhandled.
    inflight.catch(() => undefined);
    if (!how.ahead || ctx.stopRequested()) await inflight;
    return ctx.stopRequested();
  }
  return { safePoint, settled: () => inflight };
}

/** Bytes a writer's first chunk may take per ms of its call's budget: a slow machine's pace, map and commit. */
const FIRST_PIECE_BYTES_PER_MS = 1024;
const FIRST_PIECE_MIN_BYTES = 64 * 1024;

/**
 * A writer's first chunk, sized to its call's budget so that its first commit comes within it (its output does
 * not depend on where chunks end): a kibibyte per ms of budget, at least 64 KiB, at most a whole chunk.
 */
function firstPiece(ctx: SafePointContext, chunkSize: number): number {
  if (!ctx.pace) return chunkSize;
  const sized = Math.max(FIRST_PIECE_MIN_BYTES, Math.floor(ctx.pace.budgetMs * FIRST_PIECE_BYTES_PER_MS));
  return Math.min(chunkSize, sized);
}

/** processFile with a sink: resume from the sink's mark, commit at every safe point (no checkpoint store). */
export async function foldIntoSink<P, S>(
  ctx: EngineContext, input: ReadableFile, fingerprint: unknown, work: FileWork<P, S> & { readonly sink: Sink<S> },
): Promise<FileOutcome<S>> {
  const progressOf = work.progress ?? bytesOf(input.size);
  const restored = await resumeFromSink(ctx, work.sink, fingerprint, input, progressOf);
  const { pool, owned } = await choosePool(work, ctx);
  const chunkSize = work.chunkSize ?? 1024 * 1024;
  try {
    const commits = sinkCommits(ctx, work.sink, fingerprint, { progressOf, ahead: work.commitAhead === true });
    const outcome = await runChunked({
      pool,
      path: input.absolute,
      fileSize: input.size,
      ...versionOf(input),
      framing: work.framing,
      mapModule: work.mapModule,
      options: work.options,
      chunkSize,
      firstChunkSize: firstPiece(ctx, chunkSize),
      maxRecordBytes: work.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
      from: restored?.watermark ?? work.from ?? { offset: 0, line: 1 },
      state: restored?.state ?? work.initial(),
      fold: work.fold,
      // Every safe point commits: an urgent stop at the last one has nothing more to save.
      safePoint: commits.safePoint,
      ...(ctx.stopUrgent ? { urgent: ctx.stopUrgent } : {}),
    });
    await commits.settled();
    if (outcome.kind === 'failed' && outcome.error.code === ErrorCode.WorkerFailed) {
      throw workerFailedError(outcome.error);
    }
    return outcome;
  } finally {
    if (owned) await pool.close();
  }
}
