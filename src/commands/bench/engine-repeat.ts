import { analyzeInProcess, type EngineRun } from './engine-run.js';
import { timeRepeated } from './repeated.js';
import type { BenchSetup } from './suite.js';
import { DEFAULT_CHUNK_SIZE } from '../engine-flags.js';

/** The engine's settings unless a suite says otherwise: every worker asked for, 1 MiB chunks, checkpoints off. */
export function engineRun(setup: BenchSetup, change: Partial<EngineRun> = {}): EngineRun {
  return {
    path: setup.path,
    workers: setup.workers,
    chunkSize: DEFAULT_CHUNK_SIZE,
    checkpointIntervalMs: Infinity,
    stateRoot: setup.stateRoot,
    ...change,
  };
}

/** `setup.samples` timed analyses (after one warm-up), in ms. */
export function timeEngine(setup: BenchSetup, name: string, run: EngineRun): Promise<number[]> {
  const repeat = { samples: setup.samples, warmup: true, step: setup.step };
  return timeRepeated(name, repeat, () => analyzeInProcess(run));
}
