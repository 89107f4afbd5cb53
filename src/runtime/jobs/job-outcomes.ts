import { buildEnvelope, type Envelope } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { outcomeOf } from '../../contract/outcome.js';
import { JobState } from '../../contract/vocabulary/job-state.js';
import type { Cause } from '../../contract/vocabulary/cause.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import type { JobRecord } from './job-record.js';
import type { JobStore } from './job-store.js';

/**
 * The partial outcome an ended-early response carries when the handler
 * gave none of its own (it was stuck, or gone): nothing established, the
 * work named as unresolved with how far it got.
 */
export function fallbackOutcome(job: JobRecord, reason: string, cause: Cause, progress: Progress | undefined): unknown {
  return outcomeOf([], [{ q: [job.program, ...job.argv].join(' '), reason, context: { job_id: job.id, progress: progress ?? { done: 0 } } }], cause);
}

/** JOB_LOST (1): the job's process is gone and left no result; the log tail says what it last said. */
export function lostEnvelope(store: JobStore, job: JobRecord, pid: number | undefined, started: number, now: number): Envelope {
  const tail = store.logTail(job.id);
  return buildEnvelope({
    exitCode: ExitCode.GENERAL_ERROR,
    durationMs: now - started,
    error: {
      code: ErrorCode.JobLost,
      message: `Job ${job.id} ended without a result; its process${pid ? ` (pid ${pid})` : ''} is gone`,
      ...(tail ? { detail: tail } : {}),
      retryable: false,
      phase: Phase.Execution,
      ...(job.resume ? { suggestion: 'Run the original command again: it continues from the last checkpoint' } : {}),
    },
  });
}

/** Marks a job lost (status, stored result, key released) so every later reader agrees at once. */
export function markLost(store: JobStore, job: JobRecord, pid: number | undefined, now: number): Envelope {
  const envelope = lostEnvelope(store, job, pid, now, now);
  const status = store.readStatus(job.id);
  store.writeResult(job.id, envelope);
  store.writeStatus(job.id, { ...(status ?? { startedAt: now, progressAt: now }), state: JobState.Lost, updatedAt: now, endedAt: now, pid: undefined });
  store.releaseKey(job.key, job.id);
  return envelope;
}
