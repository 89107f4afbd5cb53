import { setImmediate as nextTurn } from 'node:timers/promises';
import { ErrorCode } from '../contract/error-code.js';
import { StintError } from '../contract/stint-error.js';
import { ProgressUnit } from '../contract/vocabulary/progress-unit.js';
import type { CommandContext } from '../runtime/program/command-spec.js';
import type { SafePoint } from './chunked-run.js';
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
