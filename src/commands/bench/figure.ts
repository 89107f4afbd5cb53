// A benchmark's figures: each the median of its samples with their spread,
// and ratios that name the two figures they divide (so a reader can check them).

/** Units the figures are in. */
export const FigureUnit = {
  MegabytesPerSecond: 'MB/s',
  Milliseconds: 'ms',
  Ratio: 'x',
} as const;
export type FigureUnit = (typeof FigureUnit)[keyof typeof FigureUnit];

/** One measured quantity: the median of `samples` values, their standard deviation as `spread`. */
export interface Figure {
  readonly id: string;
  readonly label: string;
  readonly unit: FigureUnit;
  readonly value: number;
  /** Standard deviation of the samples, in `unit` (0 for one sample). */
  readonly spread: number;
  readonly min: number;
  readonly max: number;
  readonly samples: number;
}

/** numerator.value / denominator.value, with the two figures named by id. */
export interface Ratio {
  readonly id: string;
  readonly label: string;
  readonly unit: typeof FigureUnit.Ratio;
  readonly value: number;
  /** Propagated from the two figures' relative spreads. */
  readonly spread: number;
  readonly numerator: string;
  readonly denominator: string;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1));
}

/** A figure from its samples (at least one). */
export function figureOf(id: string, label: string, unit: FigureUnit, samples: readonly number[]): Figure {
  if (samples.length === 0) throw new Error(`figure ${id} has no samples`);
  return {
    id,
    label,
    unit,
    value: median(samples),
    spread: standardDeviation(samples),
    min: Math.min(...samples),
    max: Math.max(...samples),
    samples: samples.length,
  };
}

/** Throughput samples, MB/s (10^6 bytes a second), from the times of runs over `bytes`. */
export function throughputOf(id: string, label: string, bytes: number, msSamples: readonly number[]): Figure {
  return figureOf(id, label, FigureUnit.MegabytesPerSecond, msSamples.map((ms) => bytes / 1e6 / (ms / 1000)));
}

export function ratioOf(id: string, label: string, numerator: Figure, denominator: Figure): Ratio {
  const value = numerator.value / denominator.value;
  const relative = Math.hypot(numerator.spread / numerator.value, denominator.spread / denominator.value);
  return {
    id,
    label,
    unit: FigureUnit.Ratio,
    value,
    spread: Number.isFinite(relative) ? Math.abs(value) * relative : 0,
    numerator: numerator.id,
    denominator: denominator.id,
  };
}
