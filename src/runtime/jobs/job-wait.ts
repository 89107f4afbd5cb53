import { setTimeout as sleep } from 'node:timers/promises';
import { buildEnvelope, type Envelope } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import { IncompleteState, JobState, isTerminal } from '../../contract/vocabulary/job-state.js';
import { incompleteEnvelope } from '../incomplete-response.js';
import type { JobRecord } from './job-record.js';
import { isAlive, type JobStore } from './job-store.js';
import { markLost } from './job-outcomes.js';

const POLL_MS = 50;

export interface WaitOptions {
  readonly store: JobStore;
  readonly now: () => number;
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
}

/**
 * What a job says now, waiting for it to end up to `until`: its stored
 * final response once it ended; INCOMPLETE (14) with fresh progress while it
 * runs or waits paused; JOB_LOST when its process died without a result.
 */
export async function waitOnJob(options: WaitOptions): Promise<Envelope> {
  const { store, id } = options;
  const job = store.readRecord(id);
  if (!job) {
    return buildEnvelope({
      exitCode: ExitCode.NOT_FOUND,
      durationMs: options.now() - options.started,
      error: { code: ErrorCode.JobNotFound, message: `no job ${id}`, retryable: false, suggestion: 'List jobs with: job list' },
    });
  }
  let missingStatusSince: number | undefined;
  for (;;) {
    const now = options.now();
    const status = store.readStatus(id);
    if (!status) {
      // The creator writes job.json then status.json: give it a moment.
      missingStatusSince ??= now;
      if (now - missingStatusSince > 2_000) return markLost(store, job, undefined, now);
    } else if (isTerminal(status.state)) {
      const result = store.readResult(id);
      if (result) return result;
      return markLost(store, job, status.pid, now);
    } else if (status.state === JobState.Paused) {
      return incompleteEnvelope({ job, state: IncompleteState.Paused, progress: status.progress, retryable: options.retryableOf(job), budgetMs: options.budgetMs, durationMs: now - options.started, ...(options.meta ? { meta: options.meta } : {}) });
    } else if (!isAlive(status.pid)) {
      // Read once more: the process may have written its end just before exiting.
      const again = store.readStatus(id);
      if (again && isTerminal(again.state)) continue;
      if (again && again.pid !== status.pid) continue;
      return markLost(store, job, status.pid, now);
    } else if (options.until !== undefined && now >= options.until) {
      return incompleteEnvelope({ job, state: IncompleteState.Running, progress: status.progress, retryable: options.retryableOf(job), budgetMs: options.budgetMs, durationMs: now - options.started, ...(options.meta ? { meta: options.meta } : {}) });
    }
    await sleep(options.until === undefined ? POLL_MS : Math.max(1, Math.min(POLL_MS, options.until - now)));
  }
}
