import { ErrorCode } from '../contract/error-code.js';
import type { Progress } from '../contract/incomplete.js';
import { StintError } from '../contract/stint-error.js';
import { ProgressUnit } from '../contract/vocabulary/progress-unit.js';
import type { EngineContext } from './engine-context.js';
import { driveFold, type FoldOver } from './fold-loop.js';

/** One chunk of a source, with the cursor that resumes just after it. */
export interface SourceChunk<C, K> {
  readonly chunk: C;
  readonly cursor: K;
}

/**
 * An input the author reads in chunks: a paginated API, a folder of files, a
 * queue. `read` yields chunks in order from a cursor (undefined: from the
 * start), each with the cursor just after it, which is never undefined (the
 * last chunk's says "past the end", e.g. null). A cursor is plain data (it is
 * saved in the checkpoint), and reading from it again yields the chunks that
 * followed it the first time.
 */
export interface Source<C, K> {
  /**
   * What the input is now (a version, an ETag, a listing): when it differs
   * from the checkpoint's, the checkpoint is discarded (CHECKPOINT_DISCARDED)
   * and the work starts over. Without it a checkpoint is always resumed.
   * May return a promise.
   */
  fingerprint?(): unknown;
  read(cursor: K | undefined): AsyncIterable<SourceChunk<C, K>>;
}

/** What processSource needs: the source, the state before its first chunk, and the fold over its chunks. */
export interface SourceWork<C, K, S> {
  readonly source: Source<C, K>;
  /** The state before the first chunk (when there is no checkpoint). */
  initial(): S;
  /** Folds the chunks on the main thread, in order; every yield is a safe point. */
  readonly fold: FoldOver<C, S>;
  /** Progress at a safe point (`done` never decreases); default: the chunks folded, in items. */
  progress?(state: S, chunks: number): Progress;
}

/** How a source's run ended: `done` at the source's end, or `stopped` at a safe point (answer INCOMPLETE). */
export type SourceOutcome<S> =
  | { readonly kind: 'done'; readonly state: S }
  | { readonly kind: 'stopped'; readonly state: S };

/** The checkpoint: the fold's state, the cursor after the chunks it holds, and how many those are. */
interface SourceCheckpoint<S, K> {
  readonly state: S;
  readonly chunks: number;
  readonly cursor?: K;
}

/**
 * An author's source through a resumable fold: the checkpoint restored (or
 * discarded when the fingerprint changed), reading resumed from its cursor,
 * and at every yield of the fold a checkpoint of {state, cursor} and a stop
 * honoured. A chunk the fold had not pulled at a stop is read again by the
 * continuation; one it had pulled is in the state and is never read again.
 */
export async function processSource<C, K, S>(
  ctx: EngineContext,
  work: SourceWork<C, K, S>,
): Promise<SourceOutcome<S>> {
  const restored = await ctx.restore<SourceCheckpoint<S, K>>({ source: (await work.source.fingerprint?.()) ?? null });
  let cursor = restored?.state.cursor;
  let pulled = restored?.state.chunks ?? 0;
  const from = cursor;
  async function* chunks(): AsyncGenerator<C> {
    for await (const next of work.source.read(from)) {
      // Saved, an undefined cursor would read as "from the start": the chunks so far would be folded twice.
      if (next.cursor === undefined) {
        throw new StintError(ErrorCode.InternalError, 'a source yielded a chunk without a cursor');
      }
      cursor = next.cursor;
      pulled++;
      yield next.chunk;
    }
  }
  const progress = (state: S) => work.progress?.(state, pulled) ?? { done: pulled, unit: ProgressUnit.Items };
  const saved = (state: S): SourceCheckpoint<S, K> =>
    ({ state, chunks: pulled, ...(cursor !== undefined ? { cursor } : {}) });
  const safePoint = (state: S) => ctx.checkpoint(saved(state), progress(state));
  const { stopped, state } = await driveFold(work.fold, chunks(), restored?.state.state ?? work.initial(), safePoint);
  return { kind: stopped ? 'stopped' : 'done', state };
}
