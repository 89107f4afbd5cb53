import type { Pace } from '../authoring/pace.js';

/** Time before the budget kept for writing the answer once the work has stopped. */
const ANSWER_RESERVE = { minMs: 20, maxMs: 100, share: 10 } as const;
/** Before any safe point the pace is unknown: the stop is asked for this much earlier than the answer needs. */
const UNKNOWN_PACE = { maxMs: 250, share: 5 } as const;
/** How many recent pieces and commits the estimates look at: the slowest of them is the one planned for. */
const RECENT = 8;

/** Time kept before a budget's end for writing the answer: a tenth of the budget, within 20 and 100 ms. */
export function answerReserveMs(budgetMs: number): number {
  const share = Math.floor(budgetMs / ANSWER_RESERVE.share);
  return Math.min(ANSWER_RESERVE.maxMs, Math.max(ANSWER_RESERVE.minMs, share));
}

/** Until when a call that waits on a job (attached, job wait, job cancel) may wait: its answer still fits. */
export function waitDeadline(started: number, budgetMs: number | undefined): number | undefined {
  return budgetMs ? started + budgetMs - answerReserveMs(budgetMs) : undefined;
}

/**
 * When a call with a budget stops, from the measured pace of its work: the
 * time between safe points (one piece of work) and the time a commit takes.
 * A stop requested at `stopAt()` reaches its next safe point, commits and
 * answers before the budget; at a safe point, `dueHere` says whether going on
 * to the next one would answer late. From `hurryAt()` the stop no longer waits
 * for work in flight (stop-controller.ts). `forceAt()` is the hard stop: the call
 * answers from its last checkpoint even when the work reached no safe point.
 */
export class BudgetPlan implements Pace {
  /** From the call's start to its first safe point: start-up included, so it counts only until a later piece. */
  private firstPiece: number | undefined;
  private readonly pieces: number[] = [];
  private readonly commits: number[] = [];
  private lastSafePoint: number | undefined;

  constructor(
    private readonly clock: { now(): number },
    private readonly started: number,
    readonly deadline: number,
    /** Told after each safe point and each commit (`committed`: the work's state up to now is kept). */
    private readonly onChange: (committed: boolean) => void,
  ) {}

  get budgetMs(): number {
    return this.deadline - this.started;
  }

  /** Time kept for the answer itself: a tenth of the budget, within 20 and 100 ms. */
  get answerMs(): number {
    return answerReserveMs(this.budgetMs);
  }

  /** The slowest recent piece: until a second safe point, the time from the call's start to the first. */
  get pieceMs(): number | undefined {
    return this.pieces.length > 0 ? Math.max(...this.pieces) : this.firstPiece;
  }

  /** Whether this call committed anything yet (a checkpoint saved, a sink's commit durable). */
  get committedOnce(): boolean {
    return this.commits.length > 0;
  }

  get commitMs(): number {
    return this.commits.length > 0 ? Math.max(...this.commits) : 0;
  }

  /** When to ask the work to stop: the next safe point, its commit and the answer still fit before the deadline. */
  stopAt(): number {
    const piece = this.pieceMs;
    if (piece === undefined) return this.deadline - this.answerMs - Math.min(UNKNOWN_PACE.maxMs, this.unknownShare());
    return this.deadline - this.answerMs - this.commitMs - piece;
  }

  /**
   * The last moment to stop at the last safe point: its commit, and half the answer's reserve for a main thread
   * still busy, fit before the hard stop.
   */
  hurryAt(): number {
    return this.forceAt() - this.commitMs - Math.floor(this.answerMs / 2);
  }

  /**
   * The hard stop, the answer's whole reserve before the deadline. The answer itself closes nothing, but its
   * timer fires only once the main thread is free: a checkpoint being packed or a merge (tens of ms on a busy
   * machine) delays it, and the reserve absorbs that.
   */
  forceAt(): number {
    return this.deadline - this.answerMs;
  }

  /** Whether, at a safe point reached now, going on to the next one would answer past the budget. */
  dueHere(): boolean {
    const piece = this.pieceMs ?? this.clock.now() - this.started;
    return this.clock.now() + piece + this.commitMs + this.answerMs > this.deadline;
  }

  safePoint(): void {
    const now = this.clock.now();
    if (this.lastSafePoint === undefined) this.firstPiece = now - this.started;
    else remember(this.pieces, now - this.lastSafePoint);
    this.lastSafePoint = now;
    this.onChange(false);
  }

  committed(ms: number): void {
    remember(this.commits, ms);
    this.onChange(true);
  }

  private unknownShare(): number {
    return Math.floor(this.budgetMs / UNKNOWN_PACE.share);
  }
}

function remember(list: number[], value: number): void {
  list.push(Math.max(0, value));
  if (list.length > RECENT) list.shift();
}
