import type { Envelope } from '../../contract/envelope.js';
import { ExitCode } from '../../contract/exit-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { IncompleteState, JobState } from '../../contract/vocabulary/job-state.js';
import { callMeta } from '../call/final-envelope.js';
import { progressDisplayOf } from '../call/execute-command.js';
import type { Invocation } from '../call/invocation.js';
import { markAnswerUnseen } from '../call/keyed-replay.js';
import { inStateDir, inStateDirAsync } from '../storage/state-dir.js';
import { recordCheck } from './job-words.js';
import { incompleteEnvelope } from './incomplete-response.js';
import { acquireJob } from './job-acquire.js';
import { endJob } from './job-end.js';
import { heartbeatOf, identityFields, type JobRecord } from './job-record.js';
import { JobStore } from './job-store.js';
import { signalsDuringWait, waitOnJob } from './job-wait.js';
import { waitDeadline } from './budget-plan.js';
import { runJob } from './run-job.js';
import { RunMode } from './run-mode.js';
import { CheckpointFate } from './stop-table.js';
import { spawnSupervisor } from './supervisor.js';
import { argvWithoutSecrets } from './argv-secrets.js';

function openJobStore(inv: Pick<Invocation, 'host' | 'stateRoot'>): JobStore {
  const store = new JobStore(inv.stateRoot, recordCheck(inv.host.programWords, inv.host.env));
  inStateDir(store.root, () => store.sweepWhenDue(() => inv.host.now()));
  return store;
}

function retryableOf(inv: Invocation): (job: JobRecord) => boolean {
  return (job) => {
    const command = inv.program.commands.find((c) => c.path.join(' ') === job.command.join(' '));
    return command?.exitCodes[ExitCode.INCOMPLETE]?.retryable ?? false;
  };
}

/** A call's answer, and what its process still does before it ends (the first safe point of a forced stop). */
export interface InterruptibleAnswer {
  readonly envelope: Envelope;
  /** Run once the answer is out, before the process ends. */
  readonly after?: () => unknown;
}

/** The caller's side of an interruptible command: run within the budget, then hand off or pause. */
export async function runInterruptible(inv: Invocation): Promise<InterruptibleAnswer> {
  const store = openJobStore(inv);
  const acquired = await inStateDirAsync(store.root, () => acquireJob(inv, store));
  if (acquired.kind === 'attach') return { envelope: await attached(inv, store, acquired.id) };
  const job = asCalled(acquired.job, inv);
  inv = { ...inv, stdinPath: job.stdinPath };
  const interruption = inv.command.spec.interruption!;
  if (interruption.detach && !interruption.resume) {
    // Work that cannot checkpoint runs in the supervisor from the start; the call waits on it.
    handOff(inv, store, job, undefined);
    return { envelope: await waitWithinBudget(inv, store, job.id) };
  }
  const outcome = await runJob(inv, store, job, RunMode.Front);
  if (outcome.kind === 'ended') return { envelope: outcome.envelope };
  const { progress, finishing } = outcome;
  if (finishing) {
    // Answered at the budget from the last checkpoint; the job stays this process's until its first safe point.
    const after = () => finishing.then((late) => {
      if (late.kind === 'stopped') pause(inv, store, job, late.progress);
    });
    return { envelope: incomplete(inv, job, IncompleteState.Paused, progress, progress === undefined), after };
  }
  if (interruption.detach) {
    // Answered first: starting the supervisor is the slow part of a handoff, and the answer does not need it.
    const after = () => handOff(inv, store, job, progress);
    return { envelope: incomplete(inv, job, IncompleteState.Running, progress), after };
  }
  // Ended meanwhile by another process (an observer's verdict): that end is the answer, not a pause.
  const stood = pause(inv, store, job, progress);
  return { envelope: stood ?? incomplete(inv, job, IncompleteState.Paused, progress) };
}

function incomplete(
  inv: Invocation, job: JobRecord, state: IncompleteState, progress: Progress | undefined, finishing = false,
): Envelope {
  const retryable = inv.command.exitCodes[ExitCode.INCOMPLETE]!.retryable;
  const { budgetMs } = inv.options;
  const durationMs = inv.host.now() - inv.started;
  const meta = callMeta(inv);
  return incompleteEnvelope({ job, state, progress, retryable, budgetMs, durationMs, meta, finishing });
}

/**
 * A job this call takes over as the caller now words it: its continue_command repeats this call's flags, so a
 * continuation given a larger --budget keeps it (and, like the job's record, no password of a URL).
 */
function asCalled(job: JobRecord, inv: Invocation): JobRecord {
  const keyGiven = inv.options.idempotencyKeyGiven ?? job.keyGiven;
  const argv = argvWithoutSecrets(inv.host.argv);
  return { ...job, argv, ...(job.idempotencyKey !== undefined ? { keyGiven } : {}) };
}

/**
 * What the job another process runs (or ran, unseen) says. An unseen answer, once given, frees the key (the
 * wait does that); the writer's kept answer is then an ordinary one, for the key's repeats.
 */
async function attached(inv: Invocation, store: JobStore, id: string): Promise<Envelope> {
  const envelope = await waitWithinBudget(inv, store, id);
  if (store.readStatus(id)?.unseen) markAnswerUnseen(inv, false);
  return envelope;
}

/**
 * What the job says within this call's budget: its answer once it ends, else 14 with fresh progress. A signal
 * ends the wait, not the job, which runs in its own process (SIGINT: 130 naming how to wait again).
 */
async function waitWithinBudget(inv: Invocation, store: JobStore, id: string): Promise<Envelope> {
  const { host, started, options } = inv;
  const until = waitDeadline(started, options.budgetMs);
  const meta = callMeta(inv);
  const clock = { now: () => host.now(), sleep: (ms: number) => host.sleep(ms), monotonic: () => host.monotonic() };
  const { budgetMs } = options;
  const signals = signalsDuringWait((signal, handler) => host.onSignal(signal, handler));
  // The job's progress as this call's own: a person at a terminal sees the work move while the call waits.
  const display = progressDisplayOf(inv);
  let answer: Envelope | undefined;
  try {
    const parts = { store, ...clock, id, started, until, budgetMs, meta, interrupted: signals.seen };
    const onProgress = (progress: Progress) => display?.update(progress);
    answer = await waitOnJob({ ...parts, onProgress, retryableOf: retryableOf(inv) });
    return answer;
  } finally {
    signals.off();
    display?.end(answer?.meta.exit_code === ExitCode.SUCCESS);
  }
}

/** The job goes on in a detached supervisor; the call answers 14 running. */
function handOff(inv: Invocation, store: JobStore, job: JobRecord, progress: Progress | undefined): void {
  const now = inv.host.now();
  const startedAt = store.readStatus(job.id)?.startedAt ?? now;
  store.releaseLease(job.id, inv.host.pid);
  const supervisor = identityFields(spawnSupervisor(inv.host, store, job));
  // The supervisor's idle clock starts when it does; so does an observer's.
  const beat = heartbeatOf(inv.host.monotonic());
  const running = { state: JobState.Running, startedAt, updatedAt: now, progressAt: now, ...supervisor, ...beat };
  store.writeStatus(job.id, { ...running, ...(progress ? { progress } : {}) });
}

/** The job waits, paused, for the identical call; returns the end another process wrote first, if one did. */
function pause(inv: Invocation, store: JobStore, job: JobRecord, progress: Progress | undefined): Envelope | undefined {
  const now = inv.host.now();
  const previous = store.readStatus(job.id);
  const from = { startedAt: previous?.startedAt ?? now, progressAt: previous?.progressAt ?? now, progress };
  const holder = { kind: 'self', pid: inv.host.pid } as const;
  const { Keep } = CheckpointFate;
  return endJob(store, job, { state: JobState.Paused, now, from, answer: undefined, checkpoint: Keep, holder });
}
