// Mean and variance of a column's numbers, kept by Welford's update and
// merged by Chan et al.'s pairwise formula: no sum of squares that cancels.

/** Count, mean and sum of squared deviations from the mean (M2). */
export interface Moments {
  n: number;
  mean: number;
  m2: number;
}

export function newMoments(): Moments {
  return { n: 0, mean: 0, m2: 0 };
}

export function addMoment(m: Moments, x: number): void {
  m.n++;
  const delta = x - m.mean;
  m.mean += delta / m.n;
  m.m2 += delta * (x - m.mean);
}

/** Folds `b` into `a`; the result is what one pass over both would give, up to rounding. */
export function mergeMoments(a: Moments, b: Moments): void {
  if (b.n === 0) return;
  if (a.n === 0) {
    Object.assign(a, b);
    return;
  }
  const n = a.n + b.n;
  const delta = b.mean - a.mean;
  a.mean += (delta * b.n) / n;
  a.m2 += b.m2 + ((delta * delta * a.n) / n) * b.n;
  a.n = n;
}

/** The sample variance (divided by n − 1, as DuckDB's and pandas' are); undefined below two values. */
export function sampleVariance(m: Moments): number | undefined {
  return m.n > 1 ? Math.max(0, m.m2) / (m.n - 1) : undefined;
}
