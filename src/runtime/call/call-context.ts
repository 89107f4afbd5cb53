import type { WarningDetail } from '../../contract/envelope.js';
import type { Cause } from '../../contract/vocabulary/cause.js';
import type { Progress } from '../../contract/incomplete.js';
import type { CommandContext, StreamOut } from '../authoring/command-spec.js';
import type { Host } from '../authoring/host.js';
import { testModeOn } from '../authoring/test-mode.js';
import type { Pace } from '../authoring/pace.js';
import { CallCheckpoint } from './call-checkpoint.js';
import { CallProgress } from './call-progress.js';

export interface CallContextParts {
  readonly host: Host;
  readonly invocationKey: string;
  readonly argumentsDigest: string;
  /** The Redis URL the chunks go to (FrameworkOptions.queue). */
  readonly queue?: string;
  /** The program's state folder; checkpoints live under it. */
  readonly stateRoot: string;
  readonly stdinPath?: string;
  readonly warnings: WarningDetail[];
  /** True once a stop was requested (budget, signal, cancel). */
  readonly stopRequested: () => boolean;
  readonly stopUrgent?: Promise<void>;
  /** Why, as an Outcome cause, once requested. */
  readonly stopCause: () => Cause | undefined;
  readonly onProgress?: (progress: Progress) => void;
  /** The budget's ear on the safe points (none without a budget). */
  readonly pace?: Pace;
  /** The caller's stdout, for a call whose data streams there. */
  readonly stdout?: (text: string) => Promise<void>;
  /** The item stream of a streaming command. */
  readonly stream?: StreamOut;
}

/** The context one call's handler gets, and what the runtime does with it after the handler returns. */
export interface CallContext {
  readonly ctx: CommandContext;
  lastProgress(): Progress | undefined;
  /**
   * The work completed: what its last safe point offered is final (nothing resumes from less), so it is
   * published even when that point saved nothing, and a job's end shows all of its work done.
   */
  completed(): void;
  /** Ends the call's hold on its checkpoint: removes it when the work ended, keeps it otherwise. */
  finish(workEnded: boolean): Promise<void>;
}

export function createCallContext(parts: CallContextParts): CallContext {
  const { host, invocationKey, warnings } = parts;
  const progress = new CallProgress(testModeOn(host.env), parts.onProgress);
  const checkpoints = new CallCheckpoint({ ...parts, progress });
  const ctx: CommandContext = {
    cwd: host.cwd,
    interactive: host.stdinIsTTY,
    stdoutWidth: host.stdoutColumns?.(),
    env: host.env,
    programWords: () => host.programWords(),
    invocationKey,
    ...(parts.queue ? { queue: parts.queue } : {}),
    argumentsDigest: parts.argumentsDigest,
    stdinPath: parts.stdinPath,
    stdout: parts.stdout,
    progress: (done, total, unit, rows) => progress.report(done, total, unit, rows),
    queueWorkers: (seen) => progress.seeWorkers(seen),
    warn: (warning) => void warnings.push(warning),
    log: (message) => host.writeStderr(`${message}\n`),
    stopRequested: parts.stopRequested,
    ...(parts.stopUrgent ? { stopUrgent: parts.stopUrgent } : {}),
    ...(parts.pace ? { pace: parts.pace } : {}),
    stopCause: parts.stopCause,
    now: () => host.now(),
    sleep: (ms) => host.sleep(ms),
    monotonic: () => host.monotonic(),
    stream: parts.stream,
    onSignal(handler) {
      const offs = (['SIGINT', 'SIGTERM'] as const).map((signal) => host.onSignal(signal, () => handler(signal)));
      return () => offs.forEach((off) => off());
    },
    scratchFile: (path) => checkpoints.scratchFile(path),
    restore: (inputs, usable) => checkpoints.restore(inputs, usable),
    checkpoint: (state, at, force) => checkpoints.checkpoint(state, at, force),
  };
  return {
    ctx,
    lastProgress: () => progress.last(),
    completed: () => progress.completed(),
    finish: (workEnded) => checkpoints.finish(workEnded),
  };
}
