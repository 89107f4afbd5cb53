import { buildEnvelope, type Envelope, type ErrorDetail } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode, SignalExitCode, type ProcessExitCode } from '../../contract/exit-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { outcomeOf } from '../../contract/outcome.js';
import { Cause } from '../../contract/vocabulary/cause.js';
import { IncompleteState } from '../../contract/vocabulary/job-state.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import { cancelCommand, continueCommand } from './incomplete-response.js';
import { formatDuration } from '../cli/duration.js';
import type { JobRecord } from './job-record.js';

/** What a job stopped early answers with: its partial outcome, how long the call took, the call's meta. */
export interface StopAnswerParts {
  readonly job: JobRecord;
  readonly partial: unknown;
  readonly durationMs: number;
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
}

/** Builds the answer of a job ended by one stop reason (see STOP_TABLE). */
export type StopAnswer = (parts: StopAnswerParts) => Envelope;

/**
 * The partial outcome an ended-early response carries when the handler
 * gave none of its own (it was stuck, or gone): nothing established, the
 * work named as unresolved with how far it got.
 */
export function fallbackOutcome(job: JobRecord, reason: string, cause: Cause, progress?: Progress): unknown {
  const context = { job_id: job.id, progress: progress ?? { done: 0 } };
  const unresolved = { q: [job.program, ...job.argv].join(' '), reason, context };
  return outcomeOf([], [unresolved], cause);
}

type StopError = Omit<ErrorDetail, 'retryable' | 'phase'>;

/** The envelope of a stop: the partial outcome as data, and an error that a retry alone does not fix. */
function stopEnvelope(exitCode: ProcessExitCode, parts: StopAnswerParts, stop: StopError, data = parts.partial) {
  const { code, message, ...more } = stop;
  const error = { code, message, retryable: false, phase: Phase.Execution, ...more };
  return buildEnvelope({ exitCode, durationMs: parts.durationMs, data, meta: parts.meta, error });
}

/** TIMEOUT (10): the whole work is over its wall clock; the checkpoint is gone. */
export const timedOutAnswer: StopAnswer = (parts) => stopEnvelope(ExitCode.TIMEOUT, parts, {
  code: ErrorCode.Timeout,
  message: `The work ran past its time limit of ${formatDuration(parts.job.timeoutMs)}`,
  fix_required: 'Run again with a larger --timeout (the checkpoint is gone)',
});

/** STALLED (10): progress did not grow for the idle timeout; the checkpoint stays, so the identical call resumes. */
export const stalledAnswer: StopAnswer = (parts) => stopEnvelope(ExitCode.TIMEOUT, parts, {
  code: ErrorCode.Stalled,
  message: `No progress for ${formatDuration(parts.job.idleTimeoutMs)}; the job was stopped`,
  ...(parts.job.resume ? { suggestion: 'Run the original command again to continue from the last checkpoint' } : {}),
});

/** CANCELLED (1) by `job cancel`: the checkpoint is discarded. */
export const cancelledAnswer: StopAnswer = (parts) => stopEnvelope(ExitCode.GENERAL_ERROR, parts, {
  code: ErrorCode.Cancelled,
  message: `Job ${parts.job.id} was cancelled; its checkpoint is discarded`,
});

/**
 * The SIGINT answer (130, CANCELLED, `data.partial: true`: some of the work is done). The
 * job stays paused with its checkpoint, so the answer also carries the
 * command that continues it: a Ctrl-C must not cost the work done.
 */
export const interruptedAnswer: StopAnswer = (parts) => {
  const { job } = parts;
  const data = {
    ...(parts.partial as Record<string, unknown>),
    partial: true,
    state: IncompleteState.Paused,
    job_id: job.id,
    continue_command: continueCommand(job, IncompleteState.Paused),
    cancel_command: cancelCommand(job),
  };
  return stopEnvelope(SignalExitCode.SIGINT, parts, {
    code: ErrorCode.Cancelled,
    message: 'Cancelled by SIGINT at a safe point; the work done is kept and its continue_command continues it',
    context: { signal: 'SIGINT', job_id: job.id },
  }, data);
};

/** What a call waiting on a job another process runs (the identical call, `job wait`) was told by a signal. */
export interface StoppedWaiting {
  readonly job: JobRecord;
  readonly progress: Progress | undefined;
  readonly durationMs: number;
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * SIGINT (130, CANCELLED) to a call that only waits: the wait ends, the job goes on in its own process, and the
 * answer names the command that waits on it again and the one that ends it.
 */
export function stoppedWaitingAnswer(parts: StoppedWaiting): Envelope {
  const { job } = parts;
  const reason = 'the wait was interrupted; the job goes on in the background';
  const data = {
    ...(fallbackOutcome(job, reason, Cause.Cancelled, parts.progress) as Record<string, unknown>),
    partial: true,
    state: IncompleteState.Running,
    job_id: job.id,
    progress: parts.progress ?? { done: 0 },
    continue_command: continueCommand(job, IncompleteState.Running),
    cancel_command: cancelCommand(job),
  };
  return stopEnvelope(SignalExitCode.SIGINT, { ...parts, partial: data }, {
    code: ErrorCode.Cancelled,
    message: `Stopped waiting by SIGINT; job ${job.id} goes on in the background, and its continue_command waits again`,
    context: { signal: 'SIGINT', job_id: job.id },
  });
}
