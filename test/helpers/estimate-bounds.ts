// What every analyze answer must say of its own estimates, whatever the file:
// checked on each envelope a CLI test reads (run-cli.ts), so every generated
// test file is held to it, and by the fixture walk (analyze-stats.test.ts).
import assert from 'node:assert/strict';

interface EstimatedColumn {
  name: string;
  count: number;
  distinct?: number;
  distinct_exact?: boolean;
  distinct_relative_error?: number;
  top_values?: { value: string; count: number }[];
  top_values_exact?: boolean;
  top_values_error?: number;
  top_values_below_error?: boolean;
}

/** The columns of each analysis an envelope's data holds (an analyze answer, or a job's that ran one), by file. */
function analyzedFiles(data: unknown): EstimatedColumn[][] {
  const established = (data as { established?: unknown } | null)?.established;
  if (!Array.isArray(established)) return [];
  return established.map((entry: { a?: { columns?: unknown } }) =>
    (Array.isArray(entry.a?.columns) ? (entry.a.columns as EstimatedColumn[]) : []));
}

/** The columns of every analysis an envelope's data holds. */
export const analyzedColumns = (data: unknown): EstimatedColumn[] => analyzedFiles(data).flat();

/** distinct ≤ count, exact where it says so; no listed value seen once, or the summary's error could account for. */
export function assertEstimateBounds(data: unknown): void {
  for (const columns of analyzedFiles(data)) {
    // A file that lists any value was asked for some (--top 0 lists none): an empty list then means none qualified.
    const listing = columns.some((c) => (c.top_values?.length ?? 0) > 0);
    for (const c of columns) assertColumnBounds(c, listing);
  }
}

function assertColumnBounds(c: EstimatedColumn, listing: boolean): void {
  // The bounds compare distinct, count and top values: an answer --stats cut leaves some out.
  if (c.distinct === undefined || c.count === undefined || c.top_values === undefined) return;
  const label = `column ${c.name}`;
  assert.ok(c.distinct <= c.count, `${label}: distinct ${c.distinct} above its ${c.count} values`);
  assert.equal(c.distinct_relative_error === 0, c.distinct_exact, `${label}: an exact distinct count has no error`);
  const top = c.top_values;
  assert.ok(top.length <= c.distinct, `${label}: more top values than distinct values`);
  assert.ok(top.reduce((sum, t) => sum + t.count, 0) <= c.count, `${label}: top counts above the values`);
  assert.equal(c.top_values_exact === true, c.top_values_error === 0, `${label}: exact iff no error`);
  for (const t of top) assert.ok(t.count > c.top_values_error!, `${label}: ${t.value} (${t.count}) within error`);
  for (const t of top) assert.ok(t.count > 1, `${label}: ${t.value} listed, seen once`);
  const below = !c.top_values_exact && top.length === 0 && c.count > 0;
  if (listing) assert.equal(c.top_values_below_error, below, `${label}: top_values_below_error`);
  else if (c.top_values_below_error) assert.ok(below, `${label}: below the error, yet ${JSON.stringify(top)}`);
}
