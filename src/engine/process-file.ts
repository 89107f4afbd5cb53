import type { CommandContext } from '../runtime/program/command-spec.js';
import type { Fold } from './chunked-run.js';
import type { Framing } from './framing.js';
import { fingerprintOf, inspectInput } from './input-file.js';
import { foldFiles, type ReadableFile } from './process-files.js';
import type { WireError } from './worker-protocol.js';

/** What `processFile` runs: a file, how it splits into records, the worker-side map and the main-side fold. */
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
}

/** How `processFile` ended: the whole file folded, stopped at a safe point (checkpointed), or failed at a line. */
export type FileOutcome<S> =
  | { readonly kind: 'done'; readonly state: S }
  | { readonly kind: 'stopped'; readonly state: S }
  | { readonly kind: 'failed'; readonly state: S; readonly error: WireError; readonly line: number };

/**
 * One file through the pool with everything an interruptible command needs
 * around its fold: the input checked, the checkpoint restored (or discarded
 * when the input changed), progress in bytes, a checkpoint at safe points,
 * and a stop honoured there.
 */
export async function processFile<P, S>(ctx: CommandContext, work: FileWork<P, S>): Promise<FileOutcome<S>> {
  const input = inspectInput(work.path, ctx.cwd);
  if (input.kind === 'bad') throw input.error;
  return foldOneFile(ctx, input, fingerprintOf([input]), work);
}

/** One readable input, from its first byte, checked against `fingerprint` (a file's, or the stdin spool's). */
export async function foldOneFile<P, S>(
  ctx: CommandContext,
  input: ReadableFile,
  fingerprint: unknown,
  work: Omit<FileWork<P, S>, 'path'>,
): Promise<FileOutcome<S>> {
  const outcome = await foldFiles<P, S, FileOutcome<S>>(ctx, [input], fingerprint, {
    ...work,
    begin: () => ({ state: work.initial() }),
    end(ended) {
      if (ended.kind === 'refused') throw ended.error;
      const { kind, state } = ended;
      return kind === 'done' ? { kind, state } : { kind, state, error: ended.error, line: ended.line };
    },
  });
  // One file has no boundary to stop at after it: a stop always comes inside it.
  if (outcome.kind === 'stopped') return { kind: 'stopped', state: outcome.current!.state };
  return outcome.results[0]!;
}
