import type { Envelope } from '../../contract/envelope.js';
import { ExitCode } from '../../contract/exit-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { IncompleteState, JobState } from '../../contract/vocabulary/job-state.js';
import { callMeta } from '../program/final-envelope.js';
import type { Invocation } from '../program/invocation.js';
import { inStateDir, inStateDirAsync } from '../storage/state-dir.js';
import { recordCheck } from './job-words.js';
import { incompleteEnvelope } from './incomplete-response.js';
import { acquireJob } from './job-acquire.js';
import { endJob } from './job-end.js';
import { heartbeatOf, identityFields, type JobRecord } from './job-record.js';
import { JobStore } from './job-store.js';
import { waitOnJob } from './job-wait.js';
import { budgetDeadline, runJob } from './run-job.js';
import { RunMode } from './run-mode.js';
import { CheckpointFate } from './stop-table.js';
import { spawnSupervisor } from './supervisor.js';

function openJobStore(inv: Pick<Invocation, 'host' | 'stateRoot'>): JobStore {
  const store = new JobStore(inv.stateRoot, recordCheck(inv.host.programWords, inv.host.env));
  inStateDir(store.root, () => store.sweepWhenDue(inv.host.now()));
  return store;
}

function retryableOf(inv: Invocation): (job: JobRecord) => boolean {
  return (job) => {
    const command = inv.program.commands.find((c) => c.path.join(' ') === job.command.join(' '));
    return command?.exitCodes[ExitCode.INCOMPLETE]?.retryable ?? false;
  };
}

/** The caller's side of an interruptible command: run within the budget, then hand off or pause. */
export async function runInterruptible(inv: Invocation): Promise<Envelope> {
  const store = openJobStore(inv);
  const acquired = await inStateDirAsync(store.root, () => acquireJob(inv, store));
  if (acquired.kind === 'attach') return waitWithinBudget(inv, store, acquired.id);
  const job = acquired.job;
  inv = { ...inv, stdinPath: job.stdinPath };
  const interruption = inv.command.spec.interruption!;
  if (interruption.detach && !interruption.resume) {
    // Work that cannot checkpoint runs in the supervisor from the start; the call waits on it.
    handOff(inv, store, job, undefined);
    return waitWithinBudget(inv, store, job.id);
  }
  const outcome = await runJob(inv, store, job, RunMode.Front);
  if (outcome.kind === 'ended') return outcome.envelope;
  const { progress } = outcome;
  const state = interruption.detach ? handOff(inv, store, job, progress) : pause(inv, store, job, progress);
  const retryable = inv.command.exitCodes[ExitCode.INCOMPLETE]!.retryable;
  const { budgetMs } = inv.options;
  const durationMs = inv.host.now() - inv.started;
  return incompleteEnvelope({ job, state, progress, retryable, budgetMs, durationMs, meta: callMeta(inv) });
}

/** What the job says within this call's budget: its answer once it ends, else 14 with fresh progress. */
function waitWithinBudget(inv: Invocation, store: JobStore, id: string): Promise<Envelope> {
  const { host, started, options } = inv;
  const until = budgetDeadline(inv);
  const meta = callMeta(inv);
  const clock = { now: () => host.now(), sleep: (ms: number) => host.sleep(ms), monotonic: () => host.monotonic() };
  const { budgetMs } = options;
  return waitOnJob({ store, ...clock, id, started, until, budgetMs, retryableOf: retryableOf(inv), meta });
}

/** The job goes on in a detached supervisor; the call answers 14 running. */
function handOff(inv: Invocation, store: JobStore, job: JobRecord, progress: Progress | undefined): IncompleteState {
  const now = inv.host.now();
  const startedAt = store.readStatus(job.id)?.startedAt ?? now;
  store.releaseLease(job.id, inv.host.pid);
  const supervisor = identityFields(spawnSupervisor(inv.host, store, job));
  // The supervisor's idle clock starts when it does; so does an observer's.
  const beat = heartbeatOf(inv.host.monotonic());
  const running = { state: JobState.Running, startedAt, updatedAt: now, progressAt: now, ...supervisor, ...beat };
  store.writeStatus(job.id, { ...running, ...(progress ? { progress } : {}) });
  return IncompleteState.Running;
}

/** The job waits, paused, for the identical call; the call answers 14 paused. */
function pause(inv: Invocation, store: JobStore, job: JobRecord, progress: Progress | undefined): IncompleteState {
  const now = inv.host.now();
  const previous = store.readStatus(job.id);
  const from = { startedAt: previous?.startedAt ?? now, progressAt: previous?.progressAt ?? now, progress };
  const holder = { kind: 'self', pid: inv.host.pid } as const;
  const { Keep } = CheckpointFate;
  endJob(store, job, { state: JobState.Paused, now, from, answer: undefined, checkpoint: Keep, holder });
  return IncompleteState.Paused;
}
