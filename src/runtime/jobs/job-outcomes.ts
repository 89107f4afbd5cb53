import { isDeepStrictEqual } from 'node:util';
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
import { judgeJob, Verdict, type Look } from './job-liveness.js';
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
  const durationMs = Math.max(0, now - job.createdAt);
  return endStopped(store, job, StopReason.Stalled, { durationMs, meta, now, from: status, holder });
}

/** Ends an observer may replace: a cancel of a job found dead discards it for good. */
const OBSERVER_ENDS = [JobState.Lost, JobState.Stalled] as const;

/** `job cancel` of a job nobody is running: end it and discard its checkpoint here. */
export function cancelIdleJob(
  store: JobStore, job: JobRecord, now: number, holder: Holder = { kind: 'none' },
): Envelope {
  const from = store.readStatus(job.id);
  const note = 'cancelled while paused';
  const parts = { note, durationMs: 0, now, from, holder, replaces: OBSERVER_ENDS };
  return endStopped(store, job, StopReason.Cancel, parts);
}

/**
 * `job cancel` of a paused job, holding its lease while it ends it: the identical call may be taking the job over
 * at this moment, and once it holds the lease it runs the job (and commits) past any end written here. Undefined
 * when such a call holds the lease already: it is the job's runner, to be asked to stop like any other.
 */
export function cancelPausedJob(store: JobStore, job: JobRecord, now: number, pid: number): Envelope | undefined {
  if (!store.takeLease(job.id, pid)) return undefined;
  return cancelIdleJob(store, job, now, { kind: 'self', pid });
}

/**
 * `job cancel` of a job found lost or stalled, holding its lease while it ends it: the identical call that
 * continues such a job takes the same lease to hand its key to the new job. False when that happened already (the
 * key names the new job, which runs on the checkpoint: not this cancel's to discard) or is happening now.
 */
export function cancelAbandonedJob(store: JobStore, job: JobRecord, now: number, pid: number): boolean {
  if (!store.takeLease(job.id, pid)) return false;
  if (store.keyHolder(job.key) !== job.id) {
    store.releaseLease(job.id, pid);
    return false;
  }
  cancelIdleJob(store, job, now, { kind: 'self', pid });
  return true;
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

/**
 * Marks a job lost (its end) so every later reader agrees at once; returns the answer that stands. The key stays
 * with it: the identical call continues from the progress it kept (CONTINUED_ENDS).
 */
export function markLost(store: JobStore, job: JobRecord, pid: number | undefined, now: number): Envelope {
  const answer = lostEnvelope(store, job, pid, now, now);
  const from = store.readStatus(job.id);
  const { Keep } = CheckpointFate;
  const ending = { state: JobState.Lost, now, from, answer, checkpoint: Keep, holder: { kind: 'gone' } } as const;
  return endJob(store, job, ending) ?? answer;
}

/** How an observer judges: its look, and (tests pass fakes) how it tells a process alive and ends a frozen one. */
export interface Judging {
  readonly look: Look;
  readonly alive?: Alive;
  readonly kill?: Kill;
}

/** A job as an observer found it: its verdict, its status then, and the answer its end stands on (once ended). */
export interface Settled {
  readonly verdict: Verdict;
  readonly status: JobStatus | undefined;
  readonly answer?: Envelope;
}

/** How many times a verdict is taken again because the status moved while it was being reached. */
const RECHECKS = 5;

/**
 * Judges a job now and ends it when it is stalled or lost, but only if its
 * status is still the one judged when the end is written (compare and
 * swap): a process writes its last status before it dies, so a verdict
 * taken on an older read is taken again. The end itself is exclusive
 * (job-end.ts), so an end the job wrote meanwhile wins and is the answer.
 */
export function settleJob(store: JobStore, job: JobRecord, judging: Judging): Settled {
  const { look, alive = isAlive, kill } = judging;
  let status = store.readStatus(job.id);
  for (let check = 0; check < RECHECKS; check++) {
    const verdict = judgeJob(job, status, look, alive);
    if (verdict !== Verdict.Stalled && verdict !== Verdict.Lost) return { verdict, status };
    const again = store.readStatus(job.id);
    if (!sameStatus(again, status)) {
      status = again;
      continue;
    }
    const answer = verdict === Verdict.Stalled
      ? markStalled(store, job, status!, look.now, kill)
      : markLost(store, job, status?.pid, look.now);
    return { verdict: Verdict.Ended, status: store.readStatus(job.id), answer };
  }
  // Still moving after every look: something writes it, so it is not lost; the next look judges again.
  return { verdict: Verdict.Running, status };
}

function sameStatus(a: JobStatus | undefined, b: JobStatus | undefined): boolean {
  return isDeepStrictEqual(a, b);
}
