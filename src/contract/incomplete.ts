import type { IncompleteState } from './vocabulary/job-state.js';
import type { ProgressUnit } from './vocabulary/progress-unit.js';

/** data.progress: done never decreases within a job and across its continuations. */
export interface Progress {
  readonly done: number;
  readonly total?: number;
  readonly unit?: ProgressUnit | string;
  /** Rows done so far beside `done`, when the work is measured in another unit (an import counts bytes). */
  readonly rows?: number;
  /** A run through a queue (--queue): the distinct `worker` processes that completed its chunks in this call. */
  readonly workers?: number;
}

/** data of an INCOMPLETE (14) response: the job, its progress, and the command that continues it. */
export interface IncompleteData {
  readonly state: IncompleteState;
  readonly job_id: string;
  readonly progress: Progress;
  readonly continue_command: string;
  readonly cancel_command: string;
}
