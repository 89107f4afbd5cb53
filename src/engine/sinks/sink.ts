import type { Watermark } from '../chunked-run.js';

/** What a sink holds of one run: how far into the input its output goes, and the state folded so far. */
export interface SinkMark<S> {
  readonly watermark: Watermark;
  readonly state: S;
  /** The input the output came from, as processFile describes it (path, size, mtime, inode): text to store as is. */
  readonly input: string;
}

/**
 * Where a run's output goes, exactly once. The sink is the source of truth
 * for where the run resumes: it holds the output and the mark that says
 * which input produced it, and writes both in ONE atomic commit, so a kill
 * leaves either both or neither. A sink serves one run: it is made for the
 * run's identity (its idempotency key) and keeps its mark under it.
 *
 * The fold's state carries the output of the chunks since the last commit
 * (a batch of rows, say); `commit` writes that output and the mark, and
 * stores what the state needs to resume (counts, not rows).
 */
export interface Sink<S> {
  /** The mark last committed for this run, or undefined when it committed nothing yet. */
  resume(): Promise<SinkMark<S> | undefined>;
  /** Writes the output `mark.state` holds and the mark itself in one atomic commit; resolves once it is durable. */
  commit(mark: SinkMark<S>): Promise<void>;
}
