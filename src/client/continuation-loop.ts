// The caller's side of the contract (seed 000): run continue_command until
// the exit is not 14, and give up cleanly when the work stops moving.
// Imports the contract only: a caller needs nothing else of stint.
import type { Envelope } from '../contract/envelope.js';
import { ExitCode } from '../contract/exit-code.js';
import type { IncompleteData } from '../contract/incomplete.js';
import { RunStatus } from '../contract/vocabulary/run-status.js';
import { StopLimit } from '../contract/vocabulary/stop-limit.js';

/** Runs one command line (verbatim, through a shell) and returns its envelope. */
export type RunCommand = (commandLine: string) => Promise<Envelope>;

/** How `continueUntilDone` runs continuations and when it stops waiting. */
export interface LoopOptions {
  readonly run: RunCommand;
  /** Continuations whose progress.done did not grow before the loop cancels (seed 000: three). */
  readonly stallLimit?: number;
  /** At most this many continuations. */
  readonly maxCalls?: number;
  /** Give up waiting at this time (ms, by `now`); the work itself goes on or stays paused. */
  readonly deadline?: number;
  readonly now?: () => number;
}

/**
 * How the loop ended. `done`: the work ended and `response` is its final
 * answer (whatever its exit code). `pending`: the loop stopped waiting
 * (maxTurns, maxWallMs) while the work goes on or waits, and `response` is
 * the last INCOMPLETE. `incomplete`: the work stopped moving, the loop ran
 * cancel_command (limit `completion`: it would not complete).
 */
export interface LoopResult {
  readonly status: RunStatus;
  readonly limit?: StopLimit;
  readonly response: Envelope;
  readonly continuations: number;
}

const DEFAULT_STALL_LIMIT = 3;

/**
 * Runs `data.continue_command` through `options.run` until the exit is not INCOMPLETE (14); after
 * `stallLimit` continuations without progress it runs `cancel_command`. A failed call ends the loop
 * as `done`, with that response.
 */
export async function continueUntilDone(first: Envelope, options: LoopOptions): Promise<LoopResult> {
  const stallLimit = options.stallLimit ?? DEFAULT_STALL_LIMIT;
  const now = options.now ?? Date.now;
  let response = first;
  let continuations = 0;
  let stalls = 0;
  while (response.meta.exit_code === ExitCode.INCOMPLETE) {
    const data = response.data as IncompleteData;
    if (options.maxCalls !== undefined && continuations >= options.maxCalls) {
      return { status: RunStatus.Pending, limit: StopLimit.MaxTurns, response, continuations };
    }
    if (options.deadline !== undefined && now() >= options.deadline) {
      return { status: RunStatus.Pending, limit: StopLimit.MaxWallMs, response, continuations };
    }
    const previous = data.progress.done;
    response = await options.run(data.continue_command);
    continuations++;
    if (response.meta.exit_code !== ExitCode.INCOMPLETE) break;
    stalls = (response.data as IncompleteData).progress.done > previous ? 0 : stalls + 1;
    if (stalls >= stallLimit) {
      await options.run((response.data as IncompleteData).cancel_command);
      return { status: RunStatus.Incomplete, limit: StopLimit.Completion, response, continuations };
    }
  }
  return { status: RunStatus.Done, response, continuations };
}
