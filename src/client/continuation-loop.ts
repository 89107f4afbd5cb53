// The caller's side of the contract (the agent loop): run continue_command until
// the exit is not 14, and give up cleanly when the work stops moving.
// Imports the contract only: a caller needs nothing else of stint.
import type { Envelope } from '../contract/envelope.js';
import { ExitCode } from '../contract/exit-code.js';
import type { IncompleteData } from '../contract/incomplete.js';
import { checkNumber, checkWhole } from '../contract/option-check.js';
import { RunStatus } from '../contract/vocabulary/run-status.js';
import { StopLimit } from '../contract/vocabulary/stop-limit.js';

/** Runs one command line (verbatim, through a shell) and returns its envelope. */
export type RunCommand = (commandLine: string) => Promise<Envelope>;

/** How `continueUntilDone` runs continuations and when it stops waiting. */
export interface LoopOptions {
  readonly run: RunCommand;
  /** Continuations whose progress.done did not grow before the loop cancels (three by default). */
  readonly stallLimit?: number;
  /** At most this many continuations. */
  readonly maxCalls?: number;
  /** Give up waiting at this time (ms, by `now`); the work itself goes on or stays paused. */
  readonly deadline?: number;
  readonly now?: () => number;
  /** Called with each continuation's response as it arrives (a progress display, a log). */
  readonly onResponse?: (response: Envelope) => void;
  /** Once aborted (an AbortSignal will do), the loop starts no further continuation: `pending`, no limit. */
  readonly signal?: { readonly aborted: boolean };
}

/**
 * How the loop ended. `done`: the work ended and `response` is its final
 * answer (whatever its exit code). `pending`: the loop stopped waiting
 * (maxTurns, maxWallMs; no limit when its `signal` was aborted) while the
 * work goes on or waits, and `response` is the last INCOMPLETE.
 * `incomplete`: the work stopped moving, the loop ran cancel_command (limit
 * `completion`: it would not complete).
 */
export interface LoopResult {
  readonly status: RunStatus;
  readonly limit?: StopLimit;
  readonly response: Envelope;
  readonly continuations: number;
  /** The answer of cancel_command, when the loop ran it (`incomplete`). */
  readonly cancelResponse?: Envelope;
  /** Why cancel_command gave no answer (it could not run, or answered no envelope): the work may go on. */
  readonly cancelError?: unknown;
  /** The continuations in a row whose progress.done did not grow (`incomplete`: the stall limit). */
  readonly stalledContinuations?: number;
}

/** Continuations without growth of progress.done before the loop cancels: then the work has stopped moving. */
export const DEFAULT_STALL_LIMIT = 3;

/**
 * Runs `data.continue_command` through `options.run` until the exit is not INCOMPLETE (14); after
 * `stallLimit` continuations without progress it runs `cancel_command`. A failed call ends the loop
 * as `done`, with that response. `maxCalls`, `deadline` and an aborted `signal` stop the waiting, never the
 * work: the loop answers `pending` with the last INCOMPLETE.
 */
export async function continueUntilDone(first: Envelope, options: LoopOptions): Promise<LoopResult> {
  checkLoopOptions(options);
  const stallLimit = options.stallLimit ?? DEFAULT_STALL_LIMIT;
  // The caller's own process: there is no Host on this side, so its clock is the machine's unless it passes one.
  const now = options.now ?? Date.now;
  let response = first;
  let continuations = 0;
  let stalls = 0;
  while (response.meta.exit_code === ExitCode.INCOMPLETE) {
    const data = response.data as IncompleteData;
    const limit = waitLimit(options, continuations, now);
    if (limit !== undefined) return { status: RunStatus.Pending, ...limit, response, continuations };
    const previous = data.progress.done;
    response = await options.run(data.continue_command);
    continuations++;
    options.onResponse?.(response);
    if (response.meta.exit_code !== ExitCode.INCOMPLETE) break;
    stalls = (response.data as IncompleteData).progress.done > previous ? 0 : stalls + 1;
    if (stalls >= stallLimit) {
      const stalled = { status: RunStatus.Incomplete, limit: StopLimit.Completion, response, continuations };
      try {
        const cancelResponse = await options.run((response.data as IncompleteData).cancel_command);
        return { ...stalled, stalledContinuations: stalls, cancelResponse };
      } catch (cancelError) {
        // The stall is still the answer: the caller escalates with the last response in hand.
        return { ...stalled, stalledContinuations: stalls, cancelError };
      }
    }
  }
  return { status: RunStatus.Done, response, continuations };
}

/** Refuses, with ARG_ERROR, limits that would never stop the loop (NaN) or make no sense (a stall limit of 0). */
function checkLoopOptions(options: LoopOptions): void {
  checkWhole('continueUntilDone', 'stallLimit', options.stallLimit, 1);
  checkWhole('continueUntilDone', 'maxCalls', options.maxCalls, 0);
  checkNumber('continueUntilDone', 'deadline', options.deadline);
}

/** Why the loop stops waiting before its next continuation: `{}` when aborted (no limit), undefined to go on. */
function waitLimit(options: LoopOptions, continuations: number, now: () => number): { limit?: StopLimit } | undefined {
  if (options.signal?.aborted) return {};
  if (options.maxCalls !== undefined && continuations >= options.maxCalls) return { limit: StopLimit.MaxTurns };
  if (options.deadline !== undefined && now() >= options.deadline) return { limit: StopLimit.MaxWallMs };
  return undefined;
}
