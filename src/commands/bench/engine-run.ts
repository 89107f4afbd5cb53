import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import { StintError } from '../../contract/stint-error.js';
import { DEFAULT_MAX_RECORD_BYTES } from '../../engine/worker/framing.js';
import { CHECKPOINT_INTERVAL_ENV } from '../../runtime/call/call-checkpoint.js';
import { createCallContext } from '../../runtime/call/call-context.js';
import type { CommandContext } from '../../runtime/authoring/command-spec.js';
import { runAnalyze } from '../analyze/analyze-run.js';
import { quietHost } from './quiet-host.js';

/** How one in-process analysis runs: the engine's knobs, and how often a safe point writes its checkpoint. */
export interface EngineRun {
  readonly path: string;
  readonly workers: number;
  readonly chunkSize: number;
  /** 0: a checkpoint at every safe point; Infinity: none but the forced ones. */
  readonly checkpointIntervalMs: number;
  /** The state folder its checkpoints go to (each run its own key, discarded at its end). */
  readonly stateRoot: string;
}

let runs = 0;

/**
 * `stint analyze` of one file inside this process, through the same handler
 * and the same checkpointing call context as the command; answers its time in
 * ms and how many safe points it passed. Worker start and close are included.
 */
export async function analyzeInProcess(run: EngineRun): Promise<{ ms: number; safePoints: number }> {
  const interval = Number.isFinite(run.checkpointIntervalMs) ? run.checkpointIntervalMs : Number.MAX_SAFE_INTEGER;
  const host = quietHost(process.cwd(), { ...process.env, [CHECKPOINT_INTERVAL_ENV]: String(interval) });
  const key = `bench-${process.pid}-${++runs}`;
  const call = createCallContext({
    host, invocationKey: key, argumentsDigest: key, stateRoot: run.stateRoot, warnings: [],
    stopRequested: () => false, stopCause: () => undefined,
  });
  let safePoints = 0;
  const ctx: CommandContext = {
    ...call.ctx,
    checkpoint: (state, progress, force) => (safePoints++, call.ctx.checkpoint(state, progress, force)),
  };
  const flags = { workers: run.workers, 'chunk-size': run.chunkSize, 'max-record-size': DEFAULT_MAX_RECORD_BYTES };
  // A benchmark times the machine itself: its own clock, not the call's.
  const started = performance.now();
  const result = await runAnalyze({ positionals: { file: [run.path] }, flags }, ctx);
  const ms = performance.now() - started;
  await call.finish(true);
  if (result.exitCode !== ExitCode.SUCCESS) {
    // The input's own refusal (NOT_CSV, FILE_NOT_FOUND...) is the benchmark's answer too.
    const error = result.error ?? { code: ErrorCode.InternalError, message: `exit ${result.exitCode}` };
    throw new StintError(error.code, `the analysis of ${run.path} failed: ${error.message}`);
  }
  return { ms, safePoints };
}
