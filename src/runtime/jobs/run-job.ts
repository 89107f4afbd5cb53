import type { Envelope } from '../../contract/envelope.js';
import { ExitCode } from '../../contract/exit-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { JobState } from '../../contract/vocabulary/job-state.js';
import { StopReason } from '../../contract/vocabulary/stop-reason.js';
import { executeCommand, progressDisplayOf, type Execution } from '../call/execute-command.js';
import { callMeta, finalEnvelope, workEnded } from '../call/final-envelope.js';
import type { Invocation } from '../call/invocation.js';
import { markAnswerUnseen } from '../call/keyed-replay.js';
import { endJob, endStopped, type Holder } from './job-end.js';
import type { JobRecord } from './job-record.js';
import type { JobStore } from './job-store.js';
import { RunMode } from './run-mode.js';
import { RunningStatus } from './running-status.js';
import { wireStopSources } from './stop-sources.js';
import { CheckpointFate, STOP_TABLE } from './stop-table.js';

/** How an in-process run ended: with a response, or stopped at a safe point for a handoff or a pause. */
export type RunOutcome =
  | { readonly kind: 'ended'; readonly envelope: Envelope }
  | {
      readonly kind: 'stopped';
      readonly progress: Progress | undefined;
      /**
       * A budget forced before this call committed anything: the call answers now, from the last checkpoint,
       * and its work goes on to its first safe point (the stop is asked for, so it is the next one) before the
       * process ends, so that every call moves the work: how the job then stands.
       */
      readonly finishing?: Promise<RunOutcome>;
    };

/** How long a call that answered at its budget still waits for its first safe point before it gives up. */
const FIRST_SAFE_POINT_WAIT_MS = 5_000;

type Winner =
  | { readonly kind: 'executed'; readonly execution: Execution }
  | { readonly kind: 'forced'; readonly reason: StopReason };

/** One run of a job in this process, as its end sees it. */
interface Run {
  readonly inv: Invocation;
  readonly store: JobStore;
  readonly job: JobRecord;
  readonly mode: RunMode;
  readonly status: RunningStatus;
  /** The caller already has its answer (14): an end now is kept for the next identical call. */
  readonly answered?: boolean;
}

export function budgetDeadline(inv: Pick<Invocation, 'options' | 'started'>): number | undefined {
  const budget = inv.options.budgetMs;
  return budget ? inv.started + budget : undefined;
}

/**
 * Runs a job's work in this process with every stop source wired
 * (stop-sources.ts), keeping its status current, and ends the job as the
 * stop table says (stop-table.ts) when the work ends or stops.
 */
export async function runJob(
  inv: Invocation,
  store: JobStore,
  job: JobRecord,
  mode: RunMode,
  announce?: () => void,
): Promise<RunOutcome> {
  const { host } = inv;
  const status = new RunningStatus(host, store, job);
  const sources = wireStopSources({
    host, store, job, mode,
    deadline: budgetDeadline(inv),
    started: inv.started,
    progressAt: () => status.lastProgressAt,
    onWatch: () => status.refresh(),
  });
  // Only now, with the signals handled, may anyone learn which process runs the job.
  announce?.();
  const display = progressDisplayOf(inv);
  const report = (progress: Progress) => status.report(progress);
  const executed = executeCommand(inv, sources.stop, report, undefined, sources.pace, display);
  let winner: Winner;
  try {
    winner = await Promise.race([
      executed.then((execution) => ({ kind: 'executed' as const, execution })),
      sources.forced.then((reason) => ({ kind: 'forced' as const, reason })),
    ]);
  } finally {
    status.close();
    sources.close();
  }
  const run: Run = { inv, store, job, mode, status };
  if (winner.kind === 'forced') {
    // Answered before the handler returns: the bar's line ends before the answer's, and draws nothing after it.
    display?.end(false);
    const outcome = stopped(run, winner.reason, undefined);
    const first = winner.reason === StopReason.Budget && mode === RunMode.Front && !sources.pace?.committedOnce;
    const pausing = job.resume && !job.detach && outcome.kind === 'stopped';
    if (first && pausing) return { ...outcome, finishing: finishLate(run, executed) };
    // Answered without it: a handler that still returns (it was winding down) lets go of its checkpoint store.
    void executed.then((execution) => execution.finish(false)).catch(() => undefined);
    return outcome;
  }
  return settle(run, winner.execution, sources.stop.reason);
}

/** The handler returned: the job ends, or stops for the reason asked (14 unasked is taken as the budget's). */
async function settle(run: Run, execution: Execution, asked: StopReason | undefined): Promise<RunOutcome> {
  // The handler is done with its checkpoint store either way; the end says whether the checkpoint stays.
  await execution.finish(false);
  const { result } = execution;
  if (result.exitCode === ExitCode.INCOMPLETE) return stopped(run, asked ?? StopReason.Budget, result.data);
  // A supervisor's answer reaches no caller as it ends: the next one to wait on the job (or the identical call)
  // gets it, and only then is the key let go, so that call never starts the finished work over.
  return ended(run, execution, run.answered === true || run.mode === RunMode.Supervisor);
}

/** After the answer: the work's first safe point (the stop is already asked for), within a bound. */
async function finishLate(run: Run, executed: Promise<Execution>): Promise<RunOutcome> {
  const gaveUp = run.inv.host.sleep(FIRST_SAFE_POINT_WAIT_MS).then(() => undefined);
  const execution = await Promise.race([executed, gaveUp]);
  if (!execution) return { kind: 'stopped', progress: run.status.lastProgress };
  return settle({ ...run, answered: true }, execution, StopReason.Budget);
}

const self = (run: Run): Holder => ({ kind: 'self', pid: run.inv.host.pid });

/**
 * A stop, at a safe point (with the handler's partial outcome) or forced
 * (none). A stop with an answer ends the job here; the others hand it back
 * to the caller (answered from the last checkpoint), a supervisor pausing it.
 */
function stopped(run: Run, reason: StopReason, data: unknown): RunOutcome {
  const { inv, store, job, status } = run;
  const now = inv.host.now();
  if (STOP_TABLE[reason].answer) {
    const meta = callMeta(inv, job.timeoutMs || undefined);
    const parts = { data, durationMs: now - inv.started, meta, now, from: status.workSoFar, holder: self(run) };
    return { kind: 'ended', envelope: endStopped(store, job, reason, parts) };
  }
  if (run.mode === RunMode.Supervisor) {
    const { state, checkpoint } = STOP_TABLE[reason];
    endJob(store, job, { state, now, from: status.workSoFar, answer: undefined, checkpoint, holder: self(run) });
  }
  return { kind: 'stopped', progress: status.lastProgress };
}

/** The work ran to its end: done or failed, with its own response. */
function ended(run: Run, execution: Execution, unseen = false): RunOutcome {
  const { inv, store, job, status } = run;
  const { result } = execution;
  // A run through the queue names how many worker processes took part (job status relays this answer).
  const workers = execution.progress?.workers;
  const meta = { ...callMeta(inv, job.timeoutMs || undefined), ...(workers !== undefined ? { workers } : {}) };
  const envelope = finalEnvelope(inv, result, execution.warnings, meta);
  const state = envelope.meta.exit_code === ExitCode.SUCCESS ? JobState.Done : JobState.Failed;
  const checkpoint = workEnded(result.exitCode) ? CheckpointFate.Discard : CheckpointFate.Keep;
  const now = inv.host.now();
  // Its caller was answered 14: the key's kept answer waits for the continuation, which gets it from the job.
  if (unseen) markAnswerUnseen(inv, true);
  const ending = { state, now, from: status.workSoFar, answer: envelope, checkpoint, holder: self(run), unseen };
  // An observer that judged this run stalled (it froze) wrote the end first: its answer stands.
  return { kind: 'ended', envelope: endJob(store, job, ending) ?? envelope };
}
