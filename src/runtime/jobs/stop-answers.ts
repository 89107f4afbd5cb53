import { buildEnvelope, type Envelope } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode, SignalExitCode } from '../../contract/exit-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { outcomeOf } from '../../contract/outcome.js';
import type { Cause } from '../../contract/vocabulary/cause.js';
import { IncompleteState } from '../../contract/vocabulary/job-state.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import { cancelCommand, continueCommand } from './incomplete-response.js';
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

/** TIMEOUT (10): the whole work is over its wall clock; the checkpoint is gone. */
export const timedOutAnswer: StopAnswer = ({ job, partial, durationMs, meta }) => buildEnvelope({
  exitCode: ExitCode.TIMEOUT,
  durationMs,
  data: partial,
  meta,
  error: {
    code: ErrorCode.Timeout,
    message: `The work exceeded its time limit of ${job.timeoutMs}ms`,
    retryable: false,
    phase: Phase.Execution,
    fix_required: 'Run again with a larger --timeout (the checkpoint is gone)',
  },
});

/** STALLED (10): progress did not grow for the idle timeout; the checkpoint stays, so the identical call resumes. */
export const stalledAnswer: StopAnswer = ({ job, partial, durationMs, meta }) => buildEnvelope({
  exitCode: ExitCode.TIMEOUT,
  durationMs,
  data: partial,
  meta,
  error: {
    code: ErrorCode.Stalled,
    message: `No progress for ${job.idleTimeoutMs}ms; the job was stopped`,
    retryable: false,
    phase: Phase.Execution,
    ...(job.resume ? { suggestion: 'Run the original command again to continue from the last checkpoint' } : {}),
  },
});

/** CANCELLED (1) by `job cancel`: the checkpoint is discarded. */
export const cancelledAnswer: StopAnswer = ({ job, partial, durationMs, meta }) => buildEnvelope({
  exitCode: ExitCode.GENERAL_ERROR,
  durationMs,
  data: partial,
  meta,
  error: {
    code: ErrorCode.Cancelled,
    message: `Job ${job.id} was cancelled; its checkpoint is discarded`,
    retryable: false,
    phase: Phase.Execution,
  },
});

/**
 * The SIGINT answer (130, CANCELLED, `data.partial: true`, REQ-F-069). The
 * job stays paused with its checkpoint, so the answer also carries the
 * command that continues it: a Ctrl-C must not cost the work done.
 */
export const interruptedAnswer: StopAnswer = ({ job, partial, durationMs, meta }) => buildEnvelope({
  exitCode: SignalExitCode.SIGINT,
  durationMs,
  meta,
  data: {
    ...(partial as Record<string, unknown>),
    partial: true,
    state: IncompleteState.Paused,
    job_id: job.id,
    continue_command: continueCommand(job, IncompleteState.Paused),
    cancel_command: cancelCommand(job),
  },
  error: {
    code: ErrorCode.Cancelled,
    message: 'Cancelled by SIGINT at a safe point; the work done is kept and data.continue_command continues it',
    retryable: false,
    phase: Phase.Execution,
    context: { signal: 'SIGINT', job_id: job.id },
  },
});
