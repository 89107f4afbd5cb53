import { StopReason } from '../../contract/vocabulary/stop-reason.js';
import type { Cancel, Host } from '../authoring/host.js';
import type { JobRecord } from './job-record.js';
import type { JobStore } from './job-store.js';
import { RunMode } from './run-mode.js';
import { StopController } from '../call/stop-controller.js';
import { BudgetPlan } from './budget-plan.js';

const WATCH_EVERY_MS = 100;
/** How long a handler gets to reach a safe point after each stop before the call answers without it. */
const GRACE_MS = {
  [StopReason.Timeout]: 5_000,
  [StopReason.Cancel]: 2_000,
  [StopReason.Stalled]: 1_000,
  // A handler stuck where no safe point comes (a hung pool) must not make SIGTERM a no-op.
  [StopReason.Terminate]: 5_000,
} as const;
type Graced = keyof typeof GRACE_MS;

export interface StopSourceParts {
  readonly host: Host;
  readonly store: JobStore;
  readonly job: JobRecord;
  readonly mode: RunMode;
  /** When the caller's budget ends (front only); undefined: no budget. */
  readonly deadline: number | undefined;
  /** When the call started: the budget's plan counts its first piece from here. */
  readonly started: number;
  /** When progress last grew, on the host's monotonic clock (the idle watchdog's). */
  readonly progressAt: () => number;
  /** Called on each watch tick: the running process's sign of life. */
  readonly onWatch: () => void;
}

/** Every stop source of one run, wired to one StopController. */
export interface StopSources {
  readonly stop: StopController;
  /** Resolves with the stop reason when the handler reached no safe point in time: the call answers without it. */
  readonly forced: Promise<StopReason>;
  /** What the work's safe points tell the budget (nothing listens without one). */
  readonly pace: BudgetPlan | undefined;
  /** Unwires every source (timers, watch, signal listeners). */
  close(): void;
}

/** Wires the budget, SIGTERM, SIGINT, `job cancel`, the wall clock and the idle watchdog, all on the host's clock. */
export function wireStopSources(parts: StopSourceParts): StopSources {
  const { host } = parts;
  const stop = new StopController();
  let force!: (reason: StopReason) => void;
  const forced = new Promise<StopReason>((resolve) => (force = resolve));
  const cancels: Cancel[] = [];
  const later = (ms: number, fn: () => void) => void cancels.push(host.setTimeout(fn, Math.max(0, ms)));
  const graced = (reason: Graced) => {
    stop.hurry(reason);
    later(GRACE_MS[reason], () => force(reason));
  };
  const wiring: Wiring = { ...parts, stop, force, later, graced };
  const budget = wireBudget(wiring);
  wireTimeout(wiring);
  cancels.push(wireWatch(wiring), ...wireSignals(wiring));
  const close = () => {
    budget?.cancel();
    cancels.forEach((cancel) => cancel());
  };
  return { stop, forced, pace: budget?.plan, close };
}

interface Wiring extends StopSourceParts {
  readonly stop: StopController;
  readonly force: (reason: StopReason) => void;
  readonly later: (ms: number, fn: () => void) => void;
  /** Requests the stop and forces it once its grace is over. */
  readonly graced: (reason: Graced) => void;
}

/**
 * The budget (front only), planned from the work's pace (budget-plan.ts): the stop is asked for when the next
 * safe point, its commit and the answer would no longer fit, hurried when only the commit and the answer still
 * fit (the work stops at its last safe point rather than wait on a chunk in flight), and forced just before the
 * budget ends, so a handler that reaches no safe point in time (stuck, or still starting up) answers from its
 * last checkpoint.
 */
function wireBudget(wiring: Wiring): { plan: BudgetPlan; cancel: Cancel } | undefined {
  const { host, mode, deadline, started, stop, force, later } = wiring;
  if (mode !== RunMode.Front || deadline === undefined) return undefined;
  let request: Cancel | undefined;
  const requestLater = () =>
    host.setTimeout(() => stop.request(StopReason.Budget), Math.max(0, plan.stopAt() - host.now()));
  const arm = (committed: boolean) => {
    request?.();
    if (!stop.requested && plan.dueHere()) stop.request(StopReason.Budget);
    // The stop's own commit is durable: the answer need not wait for the handler to wind down.
    if (committed && stop.reason === StopReason.Budget) force(StopReason.Budget);
    else if (!stop.requested) request = requestLater();
  };
  const plan: BudgetPlan = new BudgetPlan(host, started, deadline, arm);
  request = requestLater();
  stop.onRequest((reason) => {
    if (reason !== StopReason.Budget) return;
    // Not before the call's first safe point: the hard stop answers then, and the work goes on to that point.
    later(plan.hurryAt() - host.now(), () => {
      if (plan.pieceMs !== undefined) stop.hurry(StopReason.Budget);
    });
  });
  later(plan.forceAt() - host.now(), () => force(StopReason.Budget));
  return { plan, cancel: () => request?.() };
}

/** The wall clock over the whole work (--timeout, max lifetime), counted from the job's creation. */
function wireTimeout({ host, job, later, graced }: Wiring): void {
  if (job.timeoutMs > 0) later(job.createdAt + job.timeoutMs - host.now(), () => graced(StopReason.Timeout));
}

/** `job cancel` (a marker file) and the idle watchdog, checked on one watch tick. */
function wireWatch({ host, store, job, stop, progressAt, onWatch, graced }: Wiring): Cancel {
  const every = Math.min(WATCH_EVERY_MS, Math.max(10, Math.floor(job.idleTimeoutMs / 4)));
  return host.setInterval(() => {
    if (!stop.requested && store.cancelRequested(job.id)) graced(StopReason.Cancel);
    if (!stop.requested && host.monotonic().ms - progressAt() > job.idleTimeoutMs) graced(StopReason.Stalled);
    onWatch();
  }, every);
}

/** SIGTERM pauses; SIGINT interrupts (a supervisor pauses), and a second SIGINT does not wait for the safe point. */
function wireSignals({ host, mode, stop, force, graced }: Wiring): Cancel[] {
  let interrupts = 0;
  const offTerm = host.onSignal('SIGTERM', () => graced(StopReason.Terminate));
  const offInt = host.onSignal('SIGINT', () => {
    if (++interrupts > 1) force(StopReason.Interrupt);
    stop.hurry(mode === RunMode.Supervisor ? StopReason.Terminate : StopReason.Interrupt);
  });
  return [offTerm, offInt];
}
