import { setImmediate as nextTurn } from 'node:timers/promises';
import { ErrorCode } from '../contract/error-code.js';
import { StintError } from '../contract/stint-error.js';
import { ProgressUnit } from '../contract/vocabulary/progress-unit.js';
import type { CommandContext } from '../runtime/program/command-spec.js';
import { defaultWorkerCount, openChunkPool } from './chunk-pool.js';
import { DEFAULT_MAX_RECORD_BYTES, runChunked, type SafePoint } from './chunked-run.js';
import type { FileOutcome, FileWork } from './file-work.js';
import type { ReadableFile } from './process-files.js';
import { workerFailedError } from './worker-failed.js';
import type { Sink, SinkMark } from './sink.js';

/**
 * The sink's mark for this run, checked against the input (output committed
 * from other bytes must not be continued over these: that would mix two
 * files), and reported as the progress so far.
 */
export async function resumeFromSink<S>(
  ctx: CommandContext, sink: Sink<S>, fingerprint: unknown, input: { readonly path: string; readonly size: number },
): Promise<SinkMark<S> | undefined> {
  const mark = await sink.resume();
  if (mark === undefined) return undefined;
  if (mark.input !== JSON.stringify(fingerprint)) {
    throw new StintError(ErrorCode.InputChanged, `${input.path} changed since this run committed output from it`, {
      context: { path: input.path },
      fix_required: 'Restore the file, or start a new run with a new --idempotency-key (committed output stays)',
    });
  }
  ctx.progress(mark.watermark.offset, input.size, ProgressUnit.Bytes);
  return mark;
}

/** A safe point with a sink: commit the output and its watermark, then report progress and answer whether to stop. */
export function sinkSafePoint<S>(
  ctx: CommandContext, sink: Sink<S>, fingerprint: unknown, total: number,
): SafePoint<S> {
  const input = JSON.stringify(fingerprint);
  return async (state, watermark) => {
    await sink.commit({ watermark, state, input });
    // A store that never leaves the thread (PGlite's wasm) would starve the timers: the budget, the heartbeat.
    await nextTurn();
    ctx.progress(watermark.offset, total, ProgressUnit.Bytes);
    return ctx.stopRequested();
  };
}

/** processFile with a sink: resume from the sink's mark, commit at every safe point (no checkpoint store). */
export async function foldIntoSink<P, S>(
  ctx: CommandContext, input: ReadableFile, fingerprint: unknown, work: FileWork<P, S> & { readonly sink: Sink<S> },
): Promise<FileOutcome<S>> {
  const restored = await resumeFromSink(ctx, work.sink, fingerprint, input);
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
      safePoint: sinkSafePoint(ctx, work.sink, fingerprint, input.size),
    });
    if (outcome.kind === 'failed' && outcome.error.code === ErrorCode.WorkerFailed) throw workerFailedError(outcome.error);
    if (outcome.kind === 'failed') return { kind: 'failed', state: outcome.state, error: outcome.error, line: outcome.line };
    return { kind: outcome.kind, state: outcome.state };
  } finally {
    await pool.close();
  }
}
