import { continueUntilDone, DEFAULT_STALL_LIMIT, type LoopResult } from '../../client/continuation-loop.js';
import type { Envelope } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import type { IncompleteData } from '../../contract/incomplete.js';
import { RunStatus } from '../../contract/vocabulary/run-status.js';
import { StopLimit } from '../../contract/vocabulary/stop-limit.js';
import type { CommandContext, CommandResult } from '../../runtime/authoring/command-spec.js';
import { shellJoin } from '../../runtime/cli/shell-quote.js';
import { plural } from '../../runtime/cli/plural.js';
import { FrameworkFlag } from '../../runtime/authoring/framework-flags.js';
import { FollowedCall, type ChildSpawn } from './follow-child.js';

/** What `stint follow` was asked: the command's words and when to stop waiting. */
export interface FollowInput {
  readonly words: readonly string[];
  readonly maxContinuations: number | undefined;
  readonly deadlineMs: number | undefined;
}

const BUDGET_ENV = 'AGENT_CALL_BUDGET_MS';

/**
 * The agent loop for a shell caller: the command (argv, no shell, the caller's stdin), then each
 * continue_command through `sh -c` until the exit is not 14. A signal goes to the running call; the
 * call's answer, with its continue_command, becomes ours.
 */
export async function runFollow(input: FollowInput, ctx: CommandContext): Promise<CommandResult> {
  const deadline = input.deadlineMs !== undefined ? ctx.now() + input.deadlineMs : undefined;
  const interrupted = new AbortController();
  let running: FollowedCall | undefined;
  const off = ctx.onSignal((signal) => {
    interrupted.abort();
    running?.forward(signal);
  });
  if (ctx.stopRequested()) interrupted.abort();
  let lastIncomplete: Envelope | undefined;
  let shown = 0;
  // The one progress line a person at a terminal sees (the framework draws it). A callee whose progress
  // went back breaks its contract, but that is not ours to fail on: the line waits for it.
  const heard = (response: Envelope) => {
    if (response.meta.exit_code !== ExitCode.INCOMPLETE) return;
    lastIncomplete = response;
    const { done, total, unit } = (response.data as IncompleteData).progress;
    if (done >= shown) ctx.progress((shown = done), total, unit);
  };
  const call = async (words: readonly string[], line: string, stdin: ChildSpawn['stdin']) => {
    running = new FollowedCall(words, line, { cwd: ctx.cwd, env: childEnv(ctx, deadline), stdin });
    return running.answer.finally(() => (running = undefined));
  };
  try {
    if (interrupted.signal.aborted) return interruptedResult(undefined, undefined);
    // A person's terminal is not the callee's input: it would make the callee interactive (no budget).
    const first = await call(input.words, shellJoin(input.words), ctx.interactive ? 'ignore' : 'inherit');
    heard(first);
    const result = await continueUntilDone(first, {
      run: (line) => call(['sh', '-c', line], line, 'ignore'),
      ...(input.maxContinuations !== undefined ? { maxCalls: input.maxContinuations } : {}),
      ...(deadline !== undefined ? { deadline } : {}),
      now: () => ctx.now(),
      onResponse: heard,
      signal: interrupted.signal,
    });
    return interrupted.signal.aborted ? interruptedResult(result, lastIncomplete) : answerOf(result);
  } catch (thrown) {
    // A callee that died of the signal without an answer: the last continue_command still continues.
    if (interrupted.signal.aborted) return interruptedResult(undefined, lastIncomplete);
    throw thrown;
  } finally {
    off();
  }
}

/** The command's words with `--idempotency-key <key>` added among its flags (before a `--`, if it has one). */
export function withKey(words: readonly string[], key: string): string[] {
  const flag = [`--${FrameworkFlag.IdempotencyKey}`, key];
  const end = words.indexOf('--');
  return end < 0 ? [...words, ...flag] : [...words.slice(0, end), ...flag, ...words.slice(end)];
}

/** The callee's environment; under --deadline no call holds past it (AGENT_CALL_BUDGET_MS is the time left). */
function childEnv(ctx: CommandContext, deadline: number | undefined): Readonly<Record<string, string | undefined>> {
  if (deadline === undefined) return ctx.env;
  const left = Math.max(1, deadline - ctx.now());
  const own = Number(ctx.env[BUDGET_ENV]);
  const budget = Number.isInteger(own) && own > 0 ? Math.min(own, left) : left;
  return { ...ctx.env, [BUDGET_ENV]: String(budget) };
}

/** What the loop's end answers: the final response as it is, STALLED after a cancel, or 14 still pending. */
function answerOf(result: LoopResult): CommandResult {
  const { response, continuations } = result;
  if (result.status === RunStatus.Done) {
    // The callee's answer as it gave it, its data untouched; the meta says how many continue_commands it took.
    const verbatim = { ...response, meta: { ...response.meta, continuations } };
    return { exitCode: response.meta.exit_code as ExitCode, verbatim };
  }
  if (result.status === RunStatus.Incomplete) {
    return stalledResult(result);
  }
  const data = { ...(response.data as object), run_status: RunStatus.Pending, limit: result.limit, continuations };
  const why = result.limit === StopLimit.MaxTurns ? '--max-continuations' : '--deadline';
  const message = `Stopped waiting at ${why}; the work goes on: run its continue_command`;
  return { exitCode: ExitCode.INCOMPLETE, data, error: { code: ErrorCode.Incomplete, message, retryable: true } };
}

/** STALLED (10): the work stopped moving; says whether its cancel_command took, with the last response. */
function stalledResult(result: LoopResult): CommandResult {
  const cancelled = result.cancelResponse?.ok === true;
  const data = {
    run_status: RunStatus.Incomplete,
    limit: StopLimit.Completion,
    continuations: result.continuations,
    response: result.response,
    cancelled,
    ...(result.cancelResponse ? { cancel_response: result.cancelResponse } : {}),
  };
  const stalls = plural(result.stalledContinuations ?? DEFAULT_STALL_LIMIT, 'continuation');
  const outcome = cancelled
    ? 'the work was cancelled'
    : `its cancel_command did not succeed (${cancelFailure(result)}): the work may still be paused or running`;
  const message = `progress.done did not grow over the last ${stalls}; ${outcome}`;
  return { exitCode: ExitCode.TIMEOUT, data, error: { code: ErrorCode.Stalled, message, retryable: false } };
}

function cancelFailure(result: LoopResult): string {
  const answer = result.cancelResponse;
  if (answer) return `exit ${answer.meta.exit_code}${answer.error ? ` ${answer.error.code}` : ''}`;
  return result.cancelError instanceof Error ? result.cancelError.message : 'no answer';
}

/**
 * After a signal: a callee whose work ended anyway is relayed as it is. Otherwise the call answers
 * CANCELLED (the framework's 130/143 for a relay) with this data: the newest continue_command, the
 * callee's own, else the one before it, so that nothing is lost.
 */
function interruptedResult(result: LoopResult | undefined, lastIncomplete: Envelope | undefined): CommandResult {
  const response = result?.response;
  const code = response?.meta.exit_code;
  if (code !== undefined && code < ExitCode.INCOMPLETE) return { exitCode: code as ExitCode, verbatim: response! };
  const before = (lastIncomplete?.data ?? {}) as object;
  const own = (response?.data ?? {}) as object;
  const data = { ...before, ...own, run_status: RunStatus.Pending, continuations: result?.continuations ?? 0 };
  return { exitCode: ExitCode.INCOMPLETE, data };
}
