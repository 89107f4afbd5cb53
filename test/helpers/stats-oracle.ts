// The statistics analyze adds beyond count/min/max/sum (stats/*.ts), computed
// exactly from a column's values, and the projection that leaves them out so
// the csv-parse oracle (analyze-oracle.ts) compares what it computes.

/** The keys of a column summary that stats/column-extras.ts adds. */
export const EXTRA_KEYS = [
  'null_percentage', 'distinct', 'distinct_exact', 'distinct_relative_error', 'top_values', 'top_values_exact',
  'top_values_error', 'top_values_below_error', 'stddev', 'variance', 'q25', 'q50', 'q75', 'quartile_rank_error',
] as const;

/** A summary without the added statistics (a date column reads as the string column it also is). */
export function withoutExtras<T extends Record<string, unknown>>(column: T): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...column };
  for (const key of EXTRA_KEYS) delete rest[key];
  return rest;
}

/** Where `value` falls among sorted `values`: the range of ranks (0-based) it may stand for. */
export function rankRange(sorted: readonly number[], value: number): [number, number] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < sorted.length && sorted[end] === value) end++;
  return [lo, end];
}

/** How far, as a share of n, `value` is from rank q·n. */
export function rankError(sorted: readonly number[], value: number, q: number): number {
  const [lo, hi] = rankRange(sorted, value);
  const target = q * sorted.length;
  const distance = target < lo ? lo - target : target > hi ? target - hi : 0;
  return distance / sorted.length;
}

/** Exact frequencies, most first, ties by text. */
export function frequencies(values: readonly string[]): { value: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([value, count]) => ({ value, count }))
    .sort((x, y) => y.count - x.count || (x.value < y.value ? -1 : x.value > y.value ? 1 : 0));
}

/** What `top_values` lists: the `top` most frequent of the values seen more than once. */
export function topValues(values: readonly string[], top = 5): { value: string; count: number }[] {
  return frequencies(values).filter((t) => t.count > 1).slice(0, top);
}

/** The sample variance by two passes. */
export function exactVariance(values: readonly number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1);
}

/** An analyze envelope's data with every column's added statistics left out (what no chunk size changes). */
export function dataWithoutExtras(data: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(data)) as { established?: { a: { columns: Record<string, unknown>[] } }[] };
  for (const entry of copy.established ?? []) entry.a.columns = entry.a.columns.map(withoutExtras);
  return copy;
}

/** One file's analysis without the added statistics. */
export function analysisWithoutExtras<A extends { columns: readonly object[] }>(a: A): unknown {
  return { ...a, columns: a.columns.map((c) => withoutExtras({ ...c } as Record<string, unknown>)) };
}
