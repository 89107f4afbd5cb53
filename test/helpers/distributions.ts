// Known distributions for the sketches' error-bound tests, from a seeded generator.
import { random } from './csv-generator.js';

export const Distribution = { Uniform: 'uniform', Skewed: 'skewed', Duplicates: 'heavy duplicates' } as const;
export type Distribution = (typeof Distribution)[keyof typeof Distribution];

/** n numbers: uniform on [0, 1e6), skewed (exponential, a long tail), or 50 values with Zipf-like weights. */
export function numbers(kind: Distribution, n: number, seed = 1): number[] {
  const rnd = random(seed);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const u = rnd();
    if (kind === Distribution.Uniform) out[i] = Math.floor(u * 1e6) / 10;
    else if (kind === Distribution.Skewed) out[i] = Math.round(-Math.log(1 - u) * 1000 * 1000) / 1000;
    else out[i] = Math.floor(50 * u ** 3);
  }
  return out;
}

/** Splits `values` into pieces of `size` (the last shorter). */
export function chunksOf<T>(values: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}
