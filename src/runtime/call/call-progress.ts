import { ErrorCode } from '../../contract/error-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { StintError } from '../../contract/stint-error.js';

/**
 * One call's progress: what its safe points offer and what it publishes (only what is saved, so no caller or
 * observer ever sees `done` go back), with the queue workers that took part, whose count rides along.
 */
export class CallProgress {
  private published: Progress | undefined;
  // The queue workers that took part, across a resume (kept with the checkpoint); their count is progress.workers.
  private readonly workerIds = new Set<string>();
  // What a safe point offered last: test mode checks that it never decreases, even between the saves.
  private offered = 0;
  // What a safe point offered but did not save (so did not publish): the completed work's last figure.
  private unsaved: Progress | undefined;

  constructor(
    private readonly testMode: boolean,
    private readonly onProgress: ((progress: Progress) => void) | undefined,
  ) {}

  last(): Progress | undefined {
    return this.published;
  }

  /** The figure a report or a safe point stands for: never below what was published. */
  next(done: number, total?: number, unit?: string, rows?: number): Progress {
    const before = Math.max(this.offered, this.published?.done ?? 0);
    if (this.testMode && done < before) {
      throw new StintError(ErrorCode.ProgressDecreased, `progress went from ${before} down to ${done}`);
    }
    this.offered = Math.max(this.offered, done);
    return {
      done: Math.max(done, this.published?.done ?? 0),
      ...(total !== undefined ? { total } : {}),
      ...(unit !== undefined ? { unit } : {}),
      ...(rows !== undefined ? { rows } : {}),
      ...(this.workerIds.size > 0 ? { workers: this.workerIds.size } : {}),
    };
  }

  publish(kept: Progress): void {
    this.published = kept;
    this.onProgress?.(kept);
  }

  /** ctx.progress: a report is published at once. */
  report(done: number, total?: number, unit?: string, rows?: number): void {
    this.publish(this.next(done, total, unit, rows));
  }

  /** A safe point's figure, held until it is saved. */
  offer(at: Progress): Progress {
    this.unsaved = this.next(at.done, at.total, at.unit, at.rows);
    return this.unsaved;
  }

  /** The offer was saved: it is published now. */
  saved(offer: Progress): void {
    this.unsaved = undefined;
    this.publish(offer);
  }

  /** The work completed: its last offer is final, saved or not. */
  completed(): void {
    if (this.unsaved) this.publish(this.unsaved);
    this.unsaved = undefined;
  }

  /** Workers kept with a checkpoint: counted from the next report. */
  keepWorkers(ids: readonly string[]): void {
    for (const id of ids) this.workerIds.add(id);
  }

  /** ctx.queueWorkers: a newly seen worker shows at once in the progress reported so far. */
  seeWorkers(seen: readonly string[]): void {
    const before = this.workerIds.size;
    this.keepWorkers(seen);
    if (this.workerIds.size === before) return;
    // Seen at the next report; a run that reported nothing yet shows it with its first.
    const progress = this.published;
    if (progress) this.report(progress.done, progress.total, progress.unit, progress.rows);
  }

  /** The workers to keep with a checkpoint, when there are any. */
  workers(): { workers?: string[] } {
    return this.workerIds.size > 0 ? { workers: [...this.workerIds] } : {};
  }
}
