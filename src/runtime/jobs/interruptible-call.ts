import { join } from 'node:path';
import { adoptSpool } from '../storage/stdin-spool.js';
import { buildEnvelope, type Envelope } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode, SignalExitCode } from '../../contract/exit-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { IncompleteState, JobState } from '../../contract/vocabulary/job-state.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import { CAUSE_OF_STOP, StopReason } from '../../contract/vocabulary/stop-reason.js';
import { DEFAULT_IDLE_TIMEOUT_MS } from './budget.js';
import { discardCheckpoint } from '../program/call-context.js';
import { executeCommand, type Execution } from '../program/execute-command.js';
import { callMeta, finalEnvelope, workEnded } from '../program/final-envelope.js';
import { cancelCommand, continueCommand, incompleteEnvelope } from './incomplete-response.js';
import type { Invocation } from '../program/invocation.js';
import { newJobId } from './job-id.js';
import { judgeJob, STATUS_GRACE_MS, STATUS_REFRESH_MS, Verdict } from './job-liveness.js';
import { fallbackOutcome, markLost, markStalled, stalledEnvelope } from './job-outcomes.js';
import { identityFields, type JobRecord, type JobStatus } from './job-record.js';
import { JobStore } from './job-store.js';
import { waitOnJob } from './job-wait.js';
import { identityOf, isAlive } from './process-identity.js';
import { inStateDir } from '../storage/state-dir.js';
import { StopController } from './stop-controller.js';
import { spawnSupervisor } from './supervisor.js';

/** Time kept back from the budget for stopping at a safe point and answering. */
const HANDOFF_RESERVE_MS = 250;
/** Status files are rewritten at most this often while progress moves (and always at the end). */
const STATUS_EVERY_MS = 250;
const WATCH_EVERY_MS = 100;
/** How long a stuck handler gets to reach a safe point after a stall or timeout before the process answers without it. */
const STALL_GRACE_MS = 1_000;
/** How far past its budget a call may wait for a handler to reach its first safe point. */
const FORCE_GRACE_MS = 1_000;
const TIMEOUT_GRACE_MS = 5_000;
const CANCEL_GRACE_MS = 2_000;

/** Who is running the work: the caller's own process, or the detached supervisor. */
export const RunMode = { Front: 'front', Supervisor: 'supervisor' } as const;
export type RunMode = (typeof RunMode)[keyof typeof RunMode];

/** How an in-process run ended: with a response, or stopped at a safe point for a handoff or a pause. */
export type RunOutcome =
  | { readonly kind: 'ended'; readonly envelope: Envelope }
  | { readonly kind: 'stopped'; readonly progress: Progress | undefined };

type Acquired = { readonly kind: 'attach'; readonly id: string } | { readonly kind: 'own'; readonly job: JobRecord };

function openJobStore(inv: Pick<Invocation, 'host' | 'stateRoot'>): JobStore {
  const store = new JobStore(inv.stateRoot);
  inStateDir(store.root, () => store.sweepWhenDue(inv.host.now()));
  return store;
}

function newRecord(inv: Invocation, store: JobStore, id: string): JobRecord {
  const interruption = inv.command.spec.interruption!;
  return {
    id,
    key: inv.key,
    program: inv.program.identity.name,
    command: inv.command.path,
    argv: inv.host.argv,
    cwd: inv.host.cwd,
    programWords: inv.host.programWords(),
    detach: interruption.detach,
    resume: interruption.resume,
    writes: inv.command.writes,
    ...(inv.options.idempotencyKey !== undefined ? { idempotencyKey: inv.options.idempotencyKey, keyGiven: inv.options.idempotencyKeyGiven } : {}),
    ...(inv.stdinPath ? { stdinPath: join(store.dir(id), 'stdin') } : {}),
    idleTimeoutMs: interruption.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    timeoutMs: inv.options.timeoutMs ?? 0,
    createdAt: inv.host.now(),
  };
}

/**
 * Finds the job of this invocation or makes one. The identical invocation
 * attaches to a running job; a paused one is taken over; a dead one is
 * marked lost, a frozen one stalled, and a new job continues from the checkpoint.
 */
function acquireJob(inv: Invocation, store: JobStore): Acquired {
  const id = newJobId(inv.command.id);
  for (let attempt = 0; attempt < 20; attempt++) {
    const claim = store.claimKey(inv.key, id);
    if (claim.kind === 'claimed') {
      const job = newRecord(inv, store, id);
      const now = inv.host.now();
      const self = identityFields(identityOf(inv.host.pid));
      store.create(job, { state: JobState.Running, ...self, startedAt: now, updatedAt: now, progressAt: now });
      if (inv.stdinPath) adoptSpool(inv.stdinPath, store.dir(id));
      store.takeLease(id, inv.host.pid);
      return { kind: 'own', job };
    }
    if (!store.readRecord(claim.id)) {
      // Its creator is between the claim and the first write: wait for it. A claim it left, a folder deleted
      // or a damaged record (written whole by rename, so never half there) is cleared: a new job takes the key.
      const abandoned = store.exists(claim.id) || store.claimAgeMs(inv.key) > STATUS_GRACE_MS;
      const written = !abandoned && waitFor(inv, () => store.readRecord(claim.id) !== undefined);
      if (!written) store.releaseKey(inv.key, claim.id);
      continue;
    }
    const held = store.readRecord(claim.id)!;
    const status = store.readStatus(claim.id);
    const now = inv.host.now();
    switch (judgeJob(held, status, now, isAlive)) {
      case Verdict.Starting:
        // Past this wait the job is old enough to be judged lost if its status is still unreadable.
        waitFor(inv, () => store.readStatus(claim.id) !== undefined);
        continue;
      case Verdict.Ended:
        store.releaseKey(inv.key, claim.id);
        continue;
      case Verdict.Running:
        return { kind: 'attach', id: claim.id };
      case Verdict.Stalled:
        markStalled(store, held, status!, now);
        continue;
      case Verdict.Lost:
        markLost(store, held, status?.pid, now);
        continue;
      case Verdict.Paused:
        // Whoever takes the lease continues it; everyone else waits on it.
        return store.takeLease(claim.id, inv.host.pid) ? { kind: 'own', job: held } : { kind: 'attach', id: claim.id };
    }
  }
  throw new Error(`could not claim the job for invocation ${inv.key}`);
}

/** Waits up to STATUS_GRACE_MS for a fact (blocking: no work runs yet); returns whether it became true. */
function waitFor(inv: Invocation, fact: () => boolean): boolean {
  const since = inv.host.now();
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!fact()) {
    if (inv.host.now() - since > STATUS_GRACE_MS) return false;
    Atomics.wait(pause, 0, 0, 20);
  }
  return true;
}

function budgetDeadline(inv: Invocation): number | undefined {
  const budget = inv.options.budgetMs;
  return budget ? inv.started + budget : undefined;
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
  const acquired = inStateDir(store.root, () => acquireJob(inv, store));
  const wait = (id: string) => waitOnJob({ store, now: () => inv.host.now(), id, started: inv.started, until: budgetDeadline(inv), budgetMs: inv.options.budgetMs, retryableOf: retryableOf(inv), meta: callMeta(inv) });
  if (acquired.kind === 'attach') return wait(acquired.id);
  const job = acquired.job;
  inv = { ...inv, stdinPath: job.stdinPath };
  const interruption = inv.command.spec.interruption!;

  if (interruption.detach && !interruption.resume) {
    // Work that cannot checkpoint runs in the supervisor from the start; the call waits on it.
    store.releaseLease(job.id, inv.host.pid);
    const supervisor = spawnSupervisor(inv.host, store, job);
    const now = inv.host.now();
    const running = { state: JobState.Running, ...identityFields(supervisor), startedAt: now, updatedAt: now, progressAt: now };
    store.writeStatus(job.id, running);
    return wait(job.id);
  }

  const outcome = await runJob(inv, store, job, RunMode.Front);
  if (outcome.kind === 'ended') return outcome.envelope;
  const now = inv.host.now();
  const previous = store.readStatus(job.id);
  const base = { startedAt: previous?.startedAt ?? now, progressAt: previous?.progressAt ?? now, ...(outcome.progress ? { progress: outcome.progress } : {}) };
  const retryable = inv.command.exitCodes[ExitCode.INCOMPLETE]!.retryable;
  if (interruption.detach) {
    store.releaseLease(job.id, inv.host.pid);
    const supervisor = spawnSupervisor(inv.host, store, job);
    // The supervisor's idle clock starts when it does; so does an observer's.
    store.writeStatus(job.id, { ...base, ...identityFields(supervisor), state: JobState.Running, updatedAt: now, progressAt: now });
    return incompleteEnvelope({ job, state: IncompleteState.Running, progress: outcome.progress, retryable, budgetMs: inv.options.budgetMs, durationMs: now - inv.started, meta: callMeta(inv) });
  }
  store.writeStatus(job.id, { ...base, state: JobState.Paused, updatedAt: now });
  store.releaseLease(job.id, inv.host.pid);
  return incompleteEnvelope({ job, state: IncompleteState.Paused, progress: outcome.progress, retryable, budgetMs: inv.options.budgetMs, durationMs: now - inv.started, meta: callMeta(inv) });
}

/** A resolvable promise, for the watchdogs that end a stuck run. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Runs a job's work in this process with every stop source wired: the
 * budget (front only), SIGTERM, SIGINT, `job cancel`, the wall clock and the
 * idle watchdog. Keeps the status file current and ends the job's record
 * when the work ends.
 */
export async function runJob(inv: Invocation, store: JobStore, job: JobRecord, mode: RunMode, announce?: () => void): Promise<RunOutcome> {
  const { host } = inv;
  const stop = new StopController();
  const self = identityFields(identityOf(host.pid));
  const startedAt = host.now();
  const previous = store.readStatus(job.id);
  let progress: Progress | undefined = previous?.progress;
  let progressAt = startedAt;
  let lastWrite = 0;
  const writeStatus = (state: JobStatus['state'], extra: Partial<JobStatus> = {}, durable = true) => {
    const now = host.now();
    store.writeStatus(job.id, {
      state,
      startedAt: previous?.startedAt ?? startedAt,
      updatedAt: now,
      progressAt,
      ...(progress ? { progress } : {}),
      ...(state === JobState.Running ? self : {}),
      ...extra,
    }, durable);
    lastWrite = now;
  };
  writeStatus(JobState.Running);
  const noteRunning = () => {
    try {
      writeStatus(JobState.Running, {}, false);
    } catch {
      // A note that cannot be written (a full disk) must not stop the work; state changes still must be.
    }
  };

  // Once the race below is over the status belongs to whoever answers: a stuck handler's late reports stay unwritten.
  let raced = false;
  const onProgress = (next: Progress) => {
    const now = host.now();
    if (!progress || next.done > progress.done) progressAt = now;
    progress = next;
    if (!raced && now - lastWrite >= STATUS_EVERY_MS) noteRunning();
  };

  const forced = deferred<{ reason: StopReason }>();
  const timers: NodeJS.Timeout[] = [];
  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(fn, Math.max(0, ms));
    timer.unref();
    timers.push(timer);
  };
  const deadline = budgetDeadline(inv);
  if (mode === RunMode.Front && deadline !== undefined) {
    const reserve = Math.min(HANDOFF_RESERVE_MS, Math.floor((inv.options.budgetMs ?? 0) / 5));
    later(deadline - reserve - host.now(), () => stop.request(StopReason.Budget));
    // A handler that reaches no safe point (stuck, or still starting up) holds the caller only a little past the budget.
    later(deadline + Math.min(FORCE_GRACE_MS, Math.floor((inv.options.budgetMs ?? 0) / 2)) - host.now(), () => forced.resolve({ reason: StopReason.Budget }));
  }
  if (job.timeoutMs > 0) {
    later(job.createdAt + job.timeoutMs - host.now(), () => {
      stop.request(StopReason.Timeout);
      later(TIMEOUT_GRACE_MS, () => forced.resolve({ reason: StopReason.Timeout }));
    });
  }
  const watch = setInterval(() => {
    if (!stop.requested && store.cancelRequested(job.id)) {
      stop.request(StopReason.Cancel);
      later(CANCEL_GRACE_MS, () => forced.resolve({ reason: StopReason.Cancel }));
    }
    if (!stop.requested && host.now() - progressAt > job.idleTimeoutMs) {
      stop.request(StopReason.Stalled);
      later(STALL_GRACE_MS, () => forced.resolve({ reason: StopReason.Stalled }));
    }
    // A sign of life for observers (job wait, the identical call): a frozen process falls silent and is judged stalled.
    if (host.now() - lastWrite >= STATUS_REFRESH_MS) noteRunning();
  }, Math.min(WATCH_EVERY_MS, Math.max(10, Math.floor(job.idleTimeoutMs / 4))));
  watch.unref();
  let interrupts = 0;
  const offTerm = host.onSignal('SIGTERM', () => stop.request(StopReason.Terminate));
  const offInt = host.onSignal('SIGINT', () => {
    // A second SIGINT does not wait for the safe point.
    if (++interrupts > 1) forced.resolve({ reason: StopReason.Interrupt });
    stop.request(mode === RunMode.Supervisor ? StopReason.Terminate : StopReason.Interrupt);
  });
  // Only now, with the signals handled, may anyone learn which process runs the job.
  announce?.();

  let winner: { kind: 'executed'; execution: Execution } | { kind: 'forced'; reason: StopReason };
  try {
    winner = await Promise.race([
      executeCommand(inv, stop, onProgress).then((execution) => ({ kind: 'executed' as const, execution })),
      forced.promise.then(({ reason }) => ({ kind: 'forced' as const, reason })),
    ]);
  } finally {
    raced = true;
    for (const timer of timers) clearTimeout(timer);
    clearInterval(watch);
    offTerm();
    offInt();
  }

  const end = (state: JobStatus['state'], envelope: Envelope, store_ = true): RunOutcome => {
    if (store_) store.writeResult(job.id, envelope);
    writeStatus(state, { endedAt: host.now(), pid: undefined });
    if (store_) store.releaseKey(job.key, job.id);
    store.releaseLease(job.id, host.pid);
    return { kind: 'ended', envelope };
  };
  const meta = callMeta(inv, job.timeoutMs || undefined);
  const endedEarly = (reason: StopReason, data: unknown): Envelope => {
    const cause = CAUSE_OF_STOP[reason];
    const partial = data ?? fallbackOutcome(job, `stopped: ${reason}`, cause, progress);
    const durationMs = host.now() - inv.started;
    switch (reason) {
      case StopReason.Timeout:
        return buildEnvelope({ exitCode: ExitCode.TIMEOUT, durationMs, data: partial, meta, error: { code: ErrorCode.Timeout, message: `The work exceeded its time limit of ${job.timeoutMs}ms`, retryable: false, phase: Phase.Execution, fix_required: 'Run again with a larger --timeout (the checkpoint is gone)' } });
      case StopReason.Stalled:
        return stalledEnvelope(job, partial, durationMs, meta);
      case StopReason.Interrupt:
        return interruptedEnvelope(job, partial, durationMs, meta);
      default:
        return buildEnvelope({ exitCode: ExitCode.GENERAL_ERROR, durationMs, data: partial, meta, error: { code: ErrorCode.Cancelled, message: `Job ${job.id} was cancelled; its checkpoint is discarded`, retryable: false, phase: Phase.Execution } });
    }
  };

  if (winner.kind === 'forced' && winner.reason === StopReason.Budget) {
    // Stuck past the budget: answer from the last checkpoint; the stuck work ends with this process.
    return { kind: 'stopped', progress };
  }
  if (winner.kind === 'forced') {
    // The handler never reached a safe point: answer without it.
    const envelope = endedEarly(winner.reason, undefined);
    if (winner.reason === StopReason.Interrupt) return end(JobState.Paused, envelope, false);
    if (winner.reason === StopReason.Cancel) {
      discardCheckpoint(store.root, job.key);
      return end(JobState.Cancelled, envelope);
    }
    return end(winner.reason === StopReason.Stalled ? JobState.Stalled : JobState.TimedOut, envelope);
  }

  const { execution } = winner;
  const result = execution.result;
  const reason = stop.reason;
  if (result.exitCode === ExitCode.INCOMPLETE) {
    switch (reason ?? StopReason.Budget) {
      case StopReason.Budget:
      case StopReason.Terminate:
        await execution.finish(false);
        if (mode === RunMode.Supervisor) {
          writeStatus(JobState.Paused, { pid: undefined });
          store.releaseLease(job.id, host.pid);
        }
        return { kind: 'stopped', progress };
      case StopReason.Interrupt:
        await execution.finish(false);
        store.releaseLease(job.id, host.pid);
        writeStatus(JobState.Paused, { pid: undefined });
        return { kind: 'ended', envelope: endedEarly(StopReason.Interrupt, result.data) };
      case StopReason.Cancel:
        await execution.finish(true);
        return end(JobState.Cancelled, endedEarly(StopReason.Cancel, result.data));
      case StopReason.Timeout:
        await execution.finish(true);
        return end(JobState.TimedOut, endedEarly(StopReason.Timeout, result.data));
      case StopReason.Stalled:
        await execution.finish(false);
        return end(JobState.Stalled, endedEarly(StopReason.Stalled, result.data));
    }
  }
  await execution.finish(workEnded(result.exitCode));
  const envelope = finalEnvelope(inv, result, execution.warnings, meta);
  return end(envelope.meta.exit_code === ExitCode.SUCCESS ? JobState.Done : JobState.Failed, envelope);
}

/**
 * The SIGINT answer (130, CANCELLED, `data.partial: true`, REQ-F-069). The
 * job stays paused with its checkpoint, so the answer also carries the
 * command that continues it: a Ctrl-C must not cost the work done.
 */
function interruptedEnvelope(job: JobRecord, partial: unknown, durationMs: number, meta: Record<string, unknown>): Envelope {
  const data = {
    ...(partial as Record<string, unknown>),
    partial: true,
    state: IncompleteState.Paused,
    job_id: job.id,
    continue_command: continueCommand(job, IncompleteState.Paused),
    cancel_command: cancelCommand(job),
  };
  const error = {
    code: ErrorCode.Cancelled,
    message: 'Cancelled by SIGINT at a safe point; the work done is kept and data.continue_command continues it',
    retryable: false,
    phase: Phase.Execution,
    context: { signal: 'SIGINT', job_id: job.id },
  };
  return buildEnvelope({ exitCode: SignalExitCode.SIGINT, durationMs, data, meta, error });
}

/** `job cancel` of a job nobody is running: end it and discard its checkpoint here. */
export function cancelIdleJob(store: JobStore, job: JobRecord, now: number): Envelope {
  discardCheckpoint(store.root, job.key);
  const status = store.readStatus(job.id);
  const envelope = buildEnvelope({
    exitCode: ExitCode.GENERAL_ERROR,
    durationMs: 0,
    data: fallbackOutcome(job, 'cancelled while paused', CAUSE_OF_STOP[StopReason.Cancel], status?.progress),
    error: { code: ErrorCode.Cancelled, message: `Job ${job.id} was cancelled; its checkpoint is discarded`, retryable: false, phase: Phase.Execution },
  });
  store.writeResult(job.id, envelope);
  store.writeStatus(job.id, { ...(status ?? { startedAt: now, progressAt: now }), state: JobState.Cancelled, updatedAt: now, endedAt: now, pid: undefined });
  store.releaseKey(job.key, job.id);
  return envelope;
}
