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

/**
 * The sample variance (divided by n − 1, as DuckDB's and pandas' are); undefined below two values. Values far
 * enough apart overflow a double on the way (M2 or the mean turns infinite or NaN): the variance is then
 * Infinity, which the answer shows as null, never a false figure.
 */
export function sampleVariance(m: Moments): number | undefined {
  if (m.n < 2) return undefined;
  if (!Number.isFinite(m.m2) || !Number.isFinite(m.mean)) return Number.POSITIVE_INFINITY;
  return Math.max(0, m.m2) / (m.n - 1);
}
