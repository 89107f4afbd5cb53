import { isTerminal, JobState } from '../../../contract/vocabulary/job-state.js';
import { checkpointHeld } from '../../../runtime/storage/checkpoint-folder.js';
import type { JobRecord, JobStatus } from '../../../runtime/jobs/job-record.js';
import type { JobStore } from '../../../runtime/jobs/job-store.js';
import { commandLineOf } from './job-view.js';
import { NOOP_EFFECT } from '../../../runtime/call/keyed-replay.js';

/**
 * What `job cancel` does to a job (data.effect): ends it and discards its checkpoint (`cancelled`; a dry run's
 * `would_cancel`), nothing once it had ended (`none`), or nothing again for a repeated idempotency key (`noop`).
 */
export const CancelEffect = {
  Cancelled: 'cancelled', WouldCancel: 'would_cancel', None: 'none', Noop: NOOP_EFFECT,
} as const;
export type CancelEffect = (typeof CancelEffect)[keyof typeof CancelEffect];

/** Ended without finishing and without anyone running it: a cancel still has a checkpoint to discard. */
export function endedUnfinished(state: JobState): boolean {
  return state === JobState.Lost || state === JobState.Stalled;
}

const KEPT_BY_WRITERS = "what the job already committed (an import's rows) stays;"
  + ' the identical command continues after it';

/** `job cancel --dry-run`: the job, its state, what would be discarded and what stays; nothing changes. */
export function cancelPreview(store: JobStore, job: JobRecord, status: JobStatus | undefined): Record<string, unknown> {
  const state = status?.state ?? JobState.Paused;
  const acts = !isTerminal(state) || endedUnfinished(state);
  const held = checkpointHeld(store.root, job.key);
  return {
    job_id: job.id,
    command: commandLineOf(job),
    state,
    progress: status?.progress ?? { done: 0 },
    effect: acts ? CancelEffect.WouldCancel : CancelEffect.None,
    would_discard: acts ? { checkpoint: held.checkpoint, scratch_files: held.scratchFiles } : null,
    // A writer's commits are data, not a resume hint: a cancel never takes them back.
    ...(acts && job.writes
      ? { kept: KEPT_BY_WRITERS }
      : {}),
  };
}
