import { buildEnvelope, type Envelope } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { outcomeOf } from '../../contract/outcome.js';
import { JobState } from '../../contract/vocabulary/job-state.js';
import type { Cause } from '../../contract/vocabulary/cause.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import { CAUSE_OF_STOP, StopReason } from '../../contract/vocabulary/stop-reason.js';
import { statusIdentity, type JobRecord, type JobStatus } from './job-record.js';
import type { JobStore } from './job-store.js';
import { judgeJob, Verdict } from './job-liveness.js';
import { isAlive, killConfirmed, type ProcessIdentity } from './process-identity.js';

type Meta = Readonly<Record<string, unknown>>;
type Kill = (identity: ProcessIdentity) => void;
type Alive = (identity: ProcessIdentity) => boolean;
/** An ended job names no process. */
const NO_PROCESS = { pid: undefined, pidStart: undefined } as const;

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

/** STALLED (10): progress did not grow for the idle timeout; the checkpoint stays, so the identical call resumes. */
export function stalledEnvelope(job: JobRecord, data: unknown, durationMs: number, meta?: Meta): Envelope {
  return buildEnvelope({
    exitCode: ExitCode.TIMEOUT,
    durationMs,
    data,
    ...(meta ? { meta } : {}),
    error: {
      code: ErrorCode.Stalled,
      message: `No progress for ${job.idleTimeoutMs}ms; the job was stopped`,
      retryable: false,
      phase: Phase.Execution,
      ...(job.resume ? { suggestion: 'Run the original command again to continue from the last checkpoint' } : {}),
    },
  });
}

/**
 * Ends a running job an observer found stalled (frozen or hung): its end
 * is written first, then its process is killed for good, if it is still the
 * same process, so it cannot wake up and write over that end.
 */
export function markStalled(store: JobStore, job: JobRecord, status: JobStatus, now: number, kill: Kill = killConfirmed): Envelope {
  const identity = statusIdentity(status);
  const cause = CAUSE_OF_STOP[StopReason.Stalled];
  const partial = fallbackOutcome(job, `stopped: ${StopReason.Stalled}`, cause, status.progress);
  const meta = { command: job.command.join(' '), ...(job.timeoutMs ? { timeout_ms: job.timeoutMs } : {}) };
  const envelope = stalledEnvelope(job, partial, now - job.createdAt, meta);
  store.writeResult(job.id, envelope);
  store.writeStatus(job.id, { ...status, ...NO_PROCESS, state: JobState.Stalled, updatedAt: now, endedAt: now });
  if (identity) {
    kill(identity);
    store.releaseLease(job.id, identity.pid);
  }
  store.releaseKey(job.key, job.id);
  return envelope;
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
  const envelope = lostEnvelope(store, job, pid, now, now);
  const status = store.readStatus(job.id);
  store.writeResult(job.id, envelope);
  store.writeStatus(job.id, { ...(status ?? { startedAt: now, progressAt: now }), ...NO_PROCESS, state: JobState.Lost, updatedAt: now, endedAt: now });
  store.dropStaleLease(job.id);
  store.releaseKey(job.key, job.id);
  return envelope;
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
