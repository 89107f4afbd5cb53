import { JobState } from '../../contract/vocabulary/job-state.js';
import { StopReason } from '../../contract/vocabulary/stop-reason.js';
import { cancelledAnswer, interruptedAnswer, stalledAnswer, timedOutAnswer, type StopAnswer } from './stop-answers.js';

/** What becomes of the framework checkpoint when a job stops or ends. */
export const CheckpointFate = { Keep: 'keep', Discard: 'discard' } as const;
export type CheckpointFate = (typeof CheckpointFate)[keyof typeof CheckpointFate];

/** What stopping for one reason does to a job. */
export interface StopEffect {
  /** The state the job is left in. */
  readonly state: JobState;
  readonly checkpoint: CheckpointFate;
  /**
   * The job's own answer. None: the job is handed back to its caller, which
   * answers INCOMPLETE (14): paused, or running on in a detached supervisor.
   * A terminal state stores the answer as the job's result and releases the
   * invocation key; a paused job keeps both.
   */
  readonly answer: StopAnswer | undefined;
}

/**
 * The whole of what each stop does (docs/lifecycle.md, "Events"): one row
 * a stop reason, for every path that ends a job (the process running it,
 * `job cancel` of an idle job, an observer that finds it stalled).
 *
 * Reached a safe point or forced (no safe point within the stop's grace,
 * see stop-sources.ts): the same row. A forced answer carries the fallback
 * outcome instead of the handler's partial one, and the checkpoint is the
 * last one saved (the stuck handler's store is never closed; it ends with
 * the process).
 */
export const STOP_TABLE: Readonly<Record<StopReason, StopEffect>> = {
  [StopReason.Budget]: { state: JobState.Paused, checkpoint: CheckpointFate.Keep, answer: undefined },
  [StopReason.Terminate]: { state: JobState.Paused, checkpoint: CheckpointFate.Keep, answer: undefined },
  [StopReason.Interrupt]: { state: JobState.Paused, checkpoint: CheckpointFate.Keep, answer: interruptedAnswer },
  [StopReason.Cancel]: { state: JobState.Cancelled, checkpoint: CheckpointFate.Discard, answer: cancelledAnswer },
  [StopReason.Timeout]: { state: JobState.TimedOut, checkpoint: CheckpointFate.Discard, answer: timedOutAnswer },
  [StopReason.Stalled]: { state: JobState.Stalled, checkpoint: CheckpointFate.Keep, answer: stalledAnswer },
};
