import type { Figure, Ratio } from './figure.js';
import type { ResumeCost } from './resume-cost.js';

/** The suites `stint bench --suite` names. */
export const SuiteName = {
  Throughput: 'throughput',
  Scaling: 'scaling',
  Checkpoint: 'checkpoint',
  Resume: 'resume',
} as const;
export type SuiteName = (typeof SuiteName)[keyof typeof SuiteName];
/** `--suite all`. */
export const ALL_SUITES = 'all';

/** What every suite measures on: the input, the engine's top worker count, samples a figure, a state folder. */
export interface BenchSetup {
  readonly path: string;
  readonly bytes: number;
  readonly workers: number;
  readonly samples: number;
  /** Checkpoints and resumed jobs go here; removed at the end. */
  readonly stateRoot: string;
  /** The built stint, for the whole-process runs. */
  readonly stintBin: string;
  /** One measured (or warm-up) run is over. */
  readonly step: () => void;
}

export interface SuiteResult {
  readonly figures: readonly Figure[];
  readonly ratios: readonly Ratio[];
  readonly resume?: ResumeCost;
}

export interface Suite {
  readonly name: SuiteName;
  /** How many runs it will make, for the progress total. */
  steps(setup: BenchSetup): number;
  run(setup: BenchSetup): Promise<SuiteResult>;
}
