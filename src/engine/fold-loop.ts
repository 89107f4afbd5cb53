/**
 * A resumable fold: it receives chunks in order and yields its state after
 * each; every yield is a safe point where the framework reports progress,
 * checkpoints, and may stop it. A yielded state must hold every chunk the
 * fold has pulled so far: the checkpoint pairs it with the position after them.
 */
export type FoldOver<T, S> = (chunks: AsyncIterable<T>, state: S) => AsyncGenerator<S, S, void>;

/** How a driven fold ended: at its own end, or at a safe point that asked to stop. */
export interface Driven<S> {
  readonly stopped: boolean;
  readonly state: S;
}

/**
 * Runs a fold over its chunks. After each yield the safe point checkpoints
 * and answers whether to stop; a stop closes the fold, then its chunks.
 */
export async function driveFold<T, S>(
  fold: FoldOver<T, S>,
  chunks: AsyncGenerator<T>,
  state: S,
  safePoint: (state: S) => Promise<boolean>,
): Promise<Driven<S>> {
  const folding = fold(chunks, state);
  for (;;) {
    const step = await folding.next();
    if (step.done) return { stopped: false, state: step.value };
    if (await safePoint(step.value)) {
      await folding.return(step.value);
      await chunks.return(undefined);
      return { stopped: true, state: step.value };
    }
  }
}
