/**
 * What a call's safe points tell its budget, so that the stop comes where the answer still fits: the work
 * calls `safePoint` as it reaches each one (before its commit) and `committed` once that commit is durable.
 */
export interface Pace {
  /** The call's budget, for sizing its first piece of work. */
  readonly budgetMs: number;
  /** A safe point is reached now; the budget may ask to stop here when the next one would come too late. */
  safePoint(): void;
  /** The commit of the last safe point took `ms`, its synchronous part included (a store that blocks the thread). */
  committed(ms: number): void;
}
