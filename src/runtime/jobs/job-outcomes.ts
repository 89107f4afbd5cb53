import { buildEnvelope, type Envelope } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import { JobState } from '../../contract/vocabulary/job-state.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import { StopReason } from '../../contract/vocabulary/stop-reason.js';
import { endJob, endStopped, type Holder } from './job-end.js';
import { statusIdentity, type JobRecord, type JobStatus } from './job-record.js';
import type { JobStore } from './job-store.js';
import { CheckpointFate } from './stop-table.js';
import { judgeJob, Verdict } from './job-liveness.js';
import { isAlive, killConfirmed, type ProcessIdentity } from './process-identity.js';

type Kill = (identity: ProcessIdentity) => void;
type Alive = (identity: ProcessIdentity) => boolean;

/** JOB_LOST (1): the job's process is gone and left no result; the log tail says what it last said. */
export function lostEnvelope(
  store: JobStore,
  job: JobRecord,
  pid: number | undefined,
  started: number,
  now: number,
): Envelope {
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

/**
 * Ends a running job an observer found stalled (frozen or hung): its end
 * is written first, then its process is killed for good, if it is still the
 * same process, so it cannot wake up and write over that end.
 */
export function markStalled(
  store: JobStore,
  job: JobRecord,
  status: JobStatus,
  now: number,
  kill: Kill = killConfirmed,
): Envelope {
  const identity = statusIdentity(status);
  const meta = { command: job.command.join(' '), ...(job.timeoutMs ? { timeout_ms: job.timeoutMs } : {}) };
  const holder: Holder = identity ? { kind: 'frozen', identity, kill } : { kind: 'none' };
  const durationMs = now - job.createdAt;
  return endStopped(store, job, StopReason.Stalled, { durationMs, meta, now, from: status, holder });
}

/** `job cancel` of a job nobody is running: end it and discard its checkpoint here. */
export function cancelIdleJob(store: JobStore, job: JobRecord, now: number): Envelope {
  const from = store.readStatus(job.id);
  const note = 'cancelled while paused';
  return endStopped(store, job, StopReason.Cancel, { note, durationMs: 0, now, from, holder: { kind: 'none' } });
}

/** JOB_LOST (1) for a job folder whose record cannot be read: nobody can say what it was or resume it by id. */
export function unreadableEnvelope(id: string): Envelope {
  return buildEnvelope({
    exitCode: ExitCode.GENERAL_ERROR,
    durationMs: 0,
    error: {
      code: ErrorCode.JobLost,
      message: `Job ${id} cannot be read: its record (job.json) is missing or damaged`,
      retryable: false,
      phase: Phase.Execution,
      suggestion: 'Run the original command again: it continues from its checkpoint if one is left',
    },
  });
}

/** Marks a job lost (status, stored result, key released) so every later reader agrees at once. */
export function markLost(store: JobStore, job: JobRecord, pid: number | undefined, now: number): Envelope {
  const answer = lostEnvelope(store, job, pid, now, now);
  const from = store.readStatus(job.id);
  const { Keep } = CheckpointFate;
  endJob(store, job, { state: JobState.Lost, now, from, answer, checkpoint: Keep, holder: { kind: 'gone' } });
  return answer;
}

/** Judges a job now and ends it when it is stalled or lost; returns its status after. */
export function settleJob(store: JobStore, job: JobRecord, now: number, alive: Alive = isAlive): JobStatus | undefined {
  const status = store.readStatus(job.id);
  const verdict = judgeJob(job, status, now, alive);
  if (verdict === Verdict.Stalled) markStalled(store, job, status!, now);
  else if (verdict === Verdict.Lost) markLost(store, job, status?.pid, now);
  else return status;
  return store.readStatus(job.id);
}
