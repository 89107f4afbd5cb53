import type { Envelope } from '../../contract/envelope.js';
import { buildEnvelope } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import type { IncompleteData, Progress } from '../../contract/incomplete.js';
import { IncompleteState } from '../../contract/vocabulary/job-state.js';
import { FrameworkFlag } from '../authoring/framework-flags.js';
import type { JobRecord } from './job-record.js';
import { shellJoin, shellQuote } from '../cli/shell-quote.js';
import { formatChosenDuration } from '../cli/duration.js';
import { progressDone } from '../cli/progress-display.js';

export interface IncompleteParts {
  readonly job: JobRecord;
  readonly state: IncompleteState;
  readonly progress: Progress | undefined;
  /** The command's declared INCOMPLETE retryable flag. */
  readonly retryable: boolean;
  readonly budgetMs: number | undefined;
  readonly durationMs: number;
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The answering process goes on to its first safe point before it exits (run-job.ts, `finishing`). */
  readonly finishing?: boolean;
}

/**
 * The exact invocation a caller runs next to continue a job: `job wait <id>` while it runs, the original call when
 * paused. A paused job that read stdin gets its kept spool as stdin: the same bytes are the same invocation,
 * and the caller need not produce them again.
 */
export function continueCommand(job: JobRecord, state: IncompleteState): string {
  if (state === IncompleteState.Running) return shellJoin([...job.programWords, 'job', 'wait', job.id]);
  const key = job.writes && job.idempotencyKey && !job.keyGiven
    ? [`--${FrameworkFlag.IdempotencyKey}`, job.idempotencyKey]
    : [];
  // Flags go before `--` (after it every word is a positional, such as a file named -x.csv).
  const end = job.argv.indexOf('--');
  const argv = end < 0 ? [...job.argv, ...key] : [...job.argv.slice(0, end), ...key, ...job.argv.slice(end)];
  const stdin = job.stdinPath ? ` < ${shellQuote(job.stdinPath)}` : '';
  return shellJoin([...job.programWords, ...argv]) + stdin;
}

/** The command that cancels a job, confirmed (`--yes`), so that an agent runs it verbatim. */
export function cancelCommand(job: JobRecord): string {
  return shellJoin([...job.programWords, 'job', 'cancel', job.id, `--${FrameworkFlag.Yes}`]);
}

/**
 * The INCOMPLETE error's message: how far the work got, and whether it goes on by itself.
 * `Stopped at the call's 30s budget with 82% done (2.4 GiB of 2.9 GiB); the work goes on in the background`.
 */
function incompleteMessage(
  budgetMs: number | undefined, state: IncompleteState, progress?: Progress, finishing = false,
): string {
  const running = state === IncompleteState.Running;
  const next = running ? 'the work goes on in the background' : 'the state is saved';
  const done = progress && progressDone(progress);
  // A job asked about (job status, job wait with nothing left to wait for) has no budget of this call to name.
  if (!budgetMs) {
    if (done === undefined) return running ? 'Running; no safe point yet' : 'Paused before its first safe point';
    return `${running ? 'Running' : 'Paused'} with ${done}; ${next}`;
  }
  const budget = `the call's ${formatChosenDuration(budgetMs)} budget`;
  if (done === undefined) {
    const paused = finishing
      ? 'this process commits its first piece before it exits, and the next call continues from there'
      : 'the next call starts from the beginning';
    const after = running ? next : paused;
    return `${budget[0]!.toUpperCase()}${budget.slice(1)} ran out before the first safe point; ${after}`;
  }
  return `${running ? 'Stopped' : 'Paused'} at ${budget} with ${done}; ${next}`;
}

/** The INCOMPLETE (14) response: neither success nor failure, with the one command that continues the work. */
export function incompleteEnvelope(parts: IncompleteParts): Envelope<IncompleteData> {
  const { job, state, progress } = parts;
  const message = incompleteMessage(parts.budgetMs, state, progress, parts.finishing);
  return buildEnvelope<IncompleteData>({
    exitCode: ExitCode.INCOMPLETE,
    durationMs: parts.durationMs,
    data: {
      state,
      job_id: job.id,
      progress: progress ?? { done: 0 },
      continue_command: continueCommand(job, state),
      cancel_command: cancelCommand(job),
    },
    error: { code: ErrorCode.Incomplete, message, retryable: parts.retryable },
    meta: { ...parts.meta, ...(parts.budgetMs !== undefined ? { budget_ms: parts.budgetMs } : {}) },
  });
}
