import type { EngineContext } from './engine-context.js';
import { fingerprintOf, inputOf } from './input-file.js';
import { foldFiles, type FileEnd, type ReadableFile } from './process-files.js';
import { foldIntoSink } from './sink-run.js';
import { checkEngineKnobs } from './work-options.js';
import type { FileOutcome, FileWork } from './file-work.js';
export type { FileOutcome, FileWork } from './file-work.js';

/**
 * One file through the pool with everything an interruptible command needs
 * around its fold: the input checked, the checkpoint restored (or discarded
 * when the input changed), progress in bytes, a checkpoint at safe points,
 * and a stop honoured there.
 */
export async function processFile<P, S>(ctx: EngineContext, work: FileWork<P, S>): Promise<FileOutcome<S>> {
  checkEngineKnobs('processFile', work);
  const input = inputOf(work.path, ctx);
  if (input.kind === 'bad') throw input.error;
  const fingerprint = fingerprintOf([input]);
  if (work.sink) return foldIntoSink(ctx, input, fingerprint, { ...work, sink: work.sink });
  return foldOneFile(ctx, input, fingerprint, work);
}

/** One readable input, from its first byte, checked against `fingerprint` (a file's, or the stdin spool's). */
export async function foldOneFile<P, S>(
  ctx: EngineContext,
  input: ReadableFile,
  fingerprint: unknown,
  work: Omit<FileWork<P, S>, 'path'>,
): Promise<FileOutcome<S>> {
  const one = {
    ...work,
    begin: () => ({ state: work.initial(), ...(work.from ? { from: work.from } : {}) }),
    end(ended: FileEnd<S>): FileOutcome<S> {
      if (ended.kind === 'refused') throw ended.error;
      const { kind, state, watermark } = ended;
      if (kind === 'done') return { kind, state, watermark };
      return { kind, state, watermark, error: ended.error, line: ended.line };
    },
  };
  const outcome = await foldFiles<P, S, FileOutcome<S>>(ctx, [input], fingerprint, one, work.progress?.bind(work));
  // One file has no boundary to stop at after it: a stop always comes inside it.
  if (outcome.kind === 'stopped') return { kind: 'stopped', ...outcome.current! };
  return outcome.results[0]!;
}
