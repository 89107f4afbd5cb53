import { setTimeout as sleep } from 'node:timers/promises';
import { buildEnvelope, type Envelope } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { IncompleteState } from '../../contract/vocabulary/job-state.js';
import { systemMonotonic, type MonotonicReading } from '../authoring/monotonic-clock.js';
import { workEnded } from '../call/final-envelope.js';
import { incompleteEnvelope } from './incomplete-response.js';
import { Observation, Verdict } from './job-liveness.js';
import { stoppedWaitingAnswer } from './stop-answers.js';
import { markLost, settleJob, unreadableEnvelope } from './job-outcomes.js';
import type { JobRecord, JobStatus } from './job-record.js';
import type { JobStore } from './job-store.js';
import type { ProcessIdentity } from './process-identity.js';

const POLL_MS = 50;

export interface WaitOptions {
  readonly store: JobStore;
  readonly now: () => number;
  /** Paces the polls; default: the real clock (the job commands have no host of their own). */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly id: string;
  readonly started: number;
  /** Hold until this time at most; undefined = until the job ends. */
  readonly until: number | undefined;
  /** The budget in force, for meta.budget_ms. */
  readonly budgetMs: number | undefined;
  /** The declared INCOMPLETE retryable flag of the job's command. */
  readonly retryableOf: (job: JobRecord) => boolean;
  /** Meta of the waiting call, for the INCOMPLETE answer. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** Whether a process still lives (tests pass a fake); default: the system's answer. */
  readonly alive?: (identity: ProcessIdentity) => boolean;
  /** Told the job's progress at each look (a person's `job wait` draws it as a bar). */
  readonly onProgress?: (progress: Progress) => void;
  /** Ends a stalled job's process (tests pass a fake); default: SIGKILL once its identity is confirmed. */
  readonly kill?: (identity: ProcessIdentity) => void;
  /** The clock liveness is judged on (tests pass a fake); default: the system's monotonic clock. */
  readonly monotonic?: () => MonotonicReading;
  /** A signal the waiting call received: the wait ends (the job goes on in its own process). */
  readonly interrupted?: () => WaitSignal | undefined;
  /**
   * Whether the caller is handed the job's final answer (default yes). A cancel reads only how the job ended, so
   * an answer no caller has seen stays for the identical call.
   */
  readonly delivers?: boolean;
}

/** The signals that end a wait: SIGINT answers CANCELLED (130), SIGTERM answers 14 as the budget would. */
export type WaitSignal = 'SIGINT' | 'SIGTERM';

/**
 * What a job says now, waiting for it to end up to `until`: its stored
 * final response once it ended; INCOMPLETE (14) with fresh progress while it
 * runs or waits paused; JOB_LOST when its process died without a result;
 * STALLED when its process froze or hung (this observer ends it). Without
 * `until` it still returns: every job ends, or is judged stalled or lost.
 */
export async function waitOnJob(options: WaitOptions): Promise<Envelope> {
  const { store, id } = options;
  const job = store.readRecord(id);
  if (!job) return store.folderExists(id) ? unreadableEnvelope(id) : notFound(id, options.now() - options.started);
  const monotonic = options.monotonic ?? systemMonotonic;
  // What this observer sees change while it waits, on its own clock: its judge where the job's heartbeat is not.
  const observation = new Observation();
  for (;;) {
    const now = options.now();
    const look = { now, reading: monotonic(), observation };
    const { verdict, status, answer } = settleJob(store, job, { look, alive: options.alive, kill: options.kill });
    if (status?.progress) options.onProgress?.(status.progress);
    if (answer) return given(options, job, answer);
    if (verdict === Verdict.Ended) {
      return given(options, job, store.readResult(id) ?? markLost(store, job, status!.pid, now));
    }
    if (verdict === Verdict.Paused) return incomplete(options, job, IncompleteState.Paused, status!, now);
    const signal = verdict === Verdict.Running ? options.interrupted?.() : undefined;
    if (signal === 'SIGINT') return interrupted(options, job, status!, now);
    const due = signal === 'SIGTERM' || (options.until !== undefined && now >= options.until);
    if (verdict === Verdict.Running && due) {
      return incomplete(options, job, IncompleteState.Running, status!, now);
    }
    const pause = options.until === undefined ? POLL_MS : Math.max(1, Math.min(POLL_MS, options.until - now));
    await (options.sleep ?? sleep)(pause);
  }
}

/**
 * A job's final answer, given to this caller. One no caller had seen (the job ended after its caller was
 * answered 14) is given once: the identical call after this one is a new run. When the work ended, that run
 * starts over (the key goes now); when it failed but kept its checkpoint (a table locked), the job keeps the key,
 * so the next run continues from the progress it kept (job-acquire.ts), as after any such failure.
 */
function given({ store, delivers = true }: WaitOptions, job: JobRecord, envelope: Envelope): Envelope {
  if (!delivers || !store.answerAwaited(job.id, store.readStatus(job.id))) return envelope;
  store.markAnswerGiven(job.id);
  if (workEnded(envelope.meta.exit_code)) store.releaseKey(job.key, job.id);
  return envelope;
}

function notFound(id: string, durationMs: number): Envelope {
  return buildEnvelope({
    exitCode: ExitCode.NOT_FOUND,
    durationMs,
    error: {
      code: ErrorCode.JobNotFound,
      message: `no job ${id}`,
      retryable: false,
      suggestion: 'See the jobs there are with: job list',
    },
  });
}

function interrupted(options: WaitOptions, job: JobRecord, status: JobStatus, now: number): Envelope {
  const meta = options.meta ?? {};
  return stoppedWaitingAnswer({ job, progress: status.progress, durationMs: now - options.started, meta });
}

function incomplete(options: WaitOptions, job: JobRecord, state: IncompleteState, status: JobStatus, now: number) {
  return incompleteEnvelope({
    job,
    state,
    progress: status.progress,
    retryable: options.retryableOf(job),
    budgetMs: options.budgetMs,
    durationMs: now - options.started,
    ...(options.meta ? { meta: options.meta } : {}),
  });
}

/** Signals a waiting call receives from now on, the first one kept: the wait looks at it between its polls. */
export function signalsDuringWait(
  onSignal: (signal: WaitSignal, handler: () => void) => () => void,
): { readonly seen: () => WaitSignal | undefined; readonly off: () => void } {
  let first: WaitSignal | undefined;
  const offs = (['SIGINT', 'SIGTERM'] as const).map((signal) => onSignal(signal, () => void (first ??= signal)));
  return { seen: () => first, off: () => offs.forEach((off) => off()) };
}
