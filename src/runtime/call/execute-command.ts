import type { WarningDetail } from '../../contract/envelope.js';
import { ExitCode } from '../../contract/exit-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { CAUSE_OF_STOP } from '../../contract/vocabulary/stop-reason.js';
import { createCallContext } from './call-context.js';
import type { Pace } from '../authoring/pace.js';
import type { CommandInput, CommandResult, StreamOut } from '../authoring/command-spec.js';
import { streamsStdout, type Invocation } from './invocation.js';
import { heartbeat, terminalBar, type ProgressDisplay } from '../cli/progress-display.js';
import { keepAnswer } from './keyed-replay.js';
import { resultOfThrown } from './thrown.js';
import type { StopController } from './stop-controller.js';

/** A handler's run: what it returned, what it warned, how far it got; `finish` releases its checkpoint. */
export interface Execution {
  readonly result: CommandResult;
  readonly warnings: readonly WarningDetail[];
  readonly progress: Progress | undefined;
  finish(workEnded: boolean): Promise<void>;
}

/**
 * How a call shows progress: heartbeat lines when asked (--heartbeat-ms), else the bar at a terminal (a command
 * that never reports draws nothing). A call waiting on a job another process runs shows that job's progress.
 */
export function progressDisplayOf(inv: Invocation): ProgressDisplay | undefined {
  const { host } = inv;
  const label = [inv.program.identity.name, ...inv.command.path].join(' ');
  if (inv.heartbeatMs) return heartbeat(host, label, inv.heartbeatMs, inv.started);
  return host.stderrIsTTY ? terminalBar(host, label, inv.started) : undefined;
}

/**
 * Runs the handler with its context; a thrown error becomes a coded result, never an escape. `display` is the
 * call's progress display: a caller that may answer before the handler returns passes its own, to end it first.
 */
export async function executeCommand(
  inv: Invocation,
  stop: StopController,
  onProgress?: (progress: Progress) => void,
  stream?: StreamOut,
  pace?: Pace,
  display = progressDisplayOf(inv),
): Promise<Execution> {
  const { host, command } = inv;
  const warnings: WarningDetail[] = [];
  const call = createCallContext({
    host,
    invocationKey: inv.key,
    argumentsDigest: inv.argumentsDigest,
    ...(inv.options.queue ? { queue: inv.options.queue } : {}),
    stateRoot: inv.stateRoot,
    ...(inv.stdinPath ? { stdinPath: inv.stdinPath } : {}),
    ...(streamsStdout(inv) ? { stdout: (text: string) => host.writeStdout(text) } : {}),
    ...(stream ? { stream } : {}),
    warnings,
    stopRequested: () => stop.requested,
    stopUrgent: stop.urgent,
    ...(pace ? { pace } : {}),
    stopCause: () => (stop.reason ? CAUSE_OF_STOP[stop.reason] : undefined),
    onProgress: (progress) => {
      display?.update(progress);
      onProgress?.(progress);
    },
  });
  const input = {
    flags: inv.flags, positionals: inv.positionals, options: inv.options,
  } as unknown as CommandInput<never, never>;
  let result: CommandResult;
  try {
    result = await command.spec.run(input, call.ctx);
  } catch (thrown) {
    result = resultOfThrown(thrown, inv.program.codes);
    // A defect's stack is for its author, on request (the envelope keeps one line).
    if (inv.host.env['STINT_DEBUG'] && thrown instanceof Error) {
      inv.host.writeStderr(`${thrown.stack ?? thrown.message}\n`);
    }
  }
  if (result.exitCode === ExitCode.SUCCESS) call.completed();
  // A completed run's last frame shows all of it done (the last safe point may have come before the end).
  display?.end(result.exitCode === ExitCode.SUCCESS);
  keepAnswer(inv, result);
  return { result, warnings, progress: call.lastProgress(), finish: (ended) => call.finish(ended) };
}
