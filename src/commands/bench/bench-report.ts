import type { Figure, Ratio } from './figure.js';
import type { Machine } from './machine.js';
import type { ResumeCost } from './resume-cost.js';

/** `stint bench`'s data: where it ran, on what, and every figure and ratio. */
export interface BenchReport {
  readonly machine: Machine;
  /** `path` is null for a generated file (it is removed at the end). */
  readonly input: { readonly path: string | null; readonly bytes: number; readonly generated: boolean };
  readonly settings: { readonly workers: number; readonly samples: number; readonly suites: readonly string[] };
  readonly figures: readonly Figure[];
  readonly ratios: readonly Ratio[];
  readonly resume?: ResumeCost;
}
