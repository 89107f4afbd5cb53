import { JobState, isTerminal } from '../../contract/vocabulary/job-state.js';
import { statusIdentity, type JobRecord, type JobStatus } from './job-record.js';
import type { ProcessIdentity } from './process-identity.js';

/** A running process rewrites its status at least this often, progress or not: its sign of life. */
export const STATUS_REFRESH_MS = 1_000;
/**
 * How much longer than its idle timeout, and how long silent, a running job
 * may be before an observer calls it stalled: the job's own watchdog gets
 * the first chance (it ends a stall within about a second).
 */
export const STALL_MARGIN_MS = 5_000;
/** How long after its creation a job may have no readable status (its creator is writing it). */
export const STATUS_GRACE_MS = 2_000;

/** What an observer concludes about a job from its files and its process. */
export const Verdict = {
  /** Created a moment ago; its status is not written yet. */
  Starting: 'starting',
  Ended: 'ended',
  Paused: 'paused',
  Running: 'running',
  /** Alive but neither progressing nor writing: frozen or hung. */
  Stalled: 'stalled',
  /** No process runs it, yet it has no terminal status. */
  Lost: 'lost',
} as const;
export type Verdict = (typeof Verdict)[keyof typeof Verdict];

/**
 * Judges a job from outside, at `now`, with `alive` telling whether a
 * process identity still lives. Pure, so a fake clock can test it.
 * Stalled: progress.done has not grown for the idle timeout plus a margin
 * and the process has stopped refreshing its status (a frozen process
 * writes nothing); or progress has been flat twice that long whatever it
 * writes (its own watchdog failed to end it).
 */
export function judgeJob(
  job: JobRecord,
  status: JobStatus | undefined,
  now: number,
  alive: (identity: ProcessIdentity) => boolean,
): Verdict {
  if (!status) return now - job.createdAt <= STATUS_GRACE_MS ? Verdict.Starting : Verdict.Lost;
  if (isTerminal(status.state)) return Verdict.Ended;
  if (status.state === JobState.Paused) return Verdict.Paused;
  const identity = statusIdentity(status);
  if (!identity || !alive(identity)) return Verdict.Lost;
  const flatFor = now - status.progressAt;
  const silentFor = now - status.updatedAt;
  const idleLimit = job.idleTimeoutMs + STALL_MARGIN_MS;
  const stalled = flatFor > idleLimit && (silentFor > STALL_MARGIN_MS || flatFor > idleLimit + job.idleTimeoutMs);
  return stalled ? Verdict.Stalled : Verdict.Running;
}
