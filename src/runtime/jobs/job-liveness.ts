import { JobState, isTerminal } from '../../contract/vocabulary/job-state.js';
import { elapsedBetween, type MonotonicReading } from '../authoring/monotonic-clock.js';
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

/** How long a running job has been silent (no status written) and flat (progress not grown), as far as known. */
export interface Quiet {
  readonly silentMs: number;
  readonly flatMs: number;
}

/**
 * What one observer has seen of one job, on its own monotonic clock: used
 * when the job's heartbeat cannot be compared with the observer's clock (no
 * boot clock on one side). An observer that looks once has seen nothing
 * stay still, so it never finds a job stalled this way; one that waits does,
 * once the status stays the same while it watches (see quietOf).
 */
export class Observation {
  private seen: { readonly text: string; readonly pid?: number; readonly done: number } | undefined;
  private since = 0;
  private flatSince = 0;

  quiet(status: JobStatus, ms: number): Quiet {
    const text = JSON.stringify(status);
    const done = status.progress?.done ?? 0;
    if (this.seen?.text !== text) {
      // A new process (a handoff) starts its own idle clock, as the job's own watchdog does.
      if (!this.seen || this.seen.pid !== status.pid || done > this.seen.done) this.flatSince = ms;
      this.since = ms;
      this.seen = { text, done, ...(status.pid !== undefined ? { pid: status.pid } : {}) };
    }
    return { silentMs: ms - this.since, flatMs: ms - this.flatSince };
  }
}

/**
 * How an observer looks at a job: its monotonic clock reading, what it has
 * seen so far (a waiting observer keeps one Observation across its looks),
 * and its wall clock, used only where the job left nothing better.
 */
export interface Look {
  readonly now: number;
  readonly reading: MonotonicReading;
  readonly observation?: Observation;
}

/**
 * Silent and flat for: from the job's heartbeat on the shared boot clock;
 * else from what this observer saw stay still. Only once it has itself seen
 * the status unchanged past the margin (a live process writes every second,
 * so it is frozen or hung) does it read how long from the status's wall
 * stamps, the one thing a status without a heartbeat (an older version's)
 * says: so a wall-clock step alone never ends a job.
 */
export function quietOf(status: JobStatus, look: Look): Quiet {
  const beat = status.heartbeat;
  const silentMs = beat && elapsedBetween({ ms: beat.at, boot: beat.boot }, look.reading);
  if (beat && silentMs !== undefined) return { silentMs, flatMs: look.reading.ms - beat.progressAt };
  const seen = look.observation?.quiet(status, look.reading.ms) ?? { silentMs: 0, flatMs: 0 };
  if (seen.silentMs <= STALL_MARGIN_MS) return seen;
  return {
    silentMs: Math.max(seen.silentMs, look.now - status.updatedAt),
    flatMs: Math.max(seen.flatMs, look.now - status.progressAt),
  };
}

/** How old the job is: on the boot clock when its creator wrote a reading of it, else by the wall clocks. */
function ageOf(job: JobRecord, look: Look): number {
  return elapsedBetween(job.born, look.reading) ?? look.now - job.createdAt;
}

/**
 * Judges a job from outside, with `alive` telling whether a process
 * identity still lives. Pure but for the observation it updates, so an
 * injected clock can test it.
 * Stalled: progress has not grown for the idle timeout plus a margin and
 * the process has stopped refreshing its status (a frozen process writes
 * nothing); or progress has been flat twice that long whatever it writes
 * (its own watchdog failed to end it). Both measured on a monotonic clock,
 * never one process's wall clock against another's.
 */
export function judgeJob(
  job: JobRecord,
  status: JobStatus | undefined,
  look: Look,
  alive: (identity: ProcessIdentity) => boolean,
): Verdict {
  if (!status) return ageOf(job, look) <= STATUS_GRACE_MS ? Verdict.Starting : Verdict.Lost;
  if (isTerminal(status.state)) return Verdict.Ended;
  if (status.state === JobState.Paused) return Verdict.Paused;
  const identity = statusIdentity(status);
  if (!identity || !alive(identity)) return Verdict.Lost;
  const { silentMs, flatMs } = quietOf(status, look);
  const idleLimit = job.idleTimeoutMs + STALL_MARGIN_MS;
  const stalled = flatMs > idleLimit && (silentMs > STALL_MARGIN_MS || flatMs > idleLimit + job.idleTimeoutMs);
  return stalled ? Verdict.Stalled : Verdict.Running;
}
