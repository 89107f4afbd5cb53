import type { Outcome } from '../../contract/outcome.js';
import { plural } from '../../runtime/cli/plural.js';
import type { FileAnalysis, FileCitation } from './file-analysis.js';
import { renderTable, tableFits, type TableColumn } from '../../runtime/cli/text-table.js';
import type { ColumnSummary } from './map/column-stats.js';

const COLUMNS: readonly TableColumn[] = [
  { header: 'column' },
  { header: 'type' },
  { header: 'count', align: 'right' },
  { header: 'nulls', align: 'right' },
  { header: 'min' },
  { header: 'max' },
  { header: 'mean', align: 'right' },
];

/** The second table: how values spread (stats/column-extras.ts). */
const SPREAD: readonly TableColumn[] = [
  { header: 'column' },
  { header: 'null %', align: 'right' },
  { header: 'distinct', align: 'right' },
  { header: 'stddev', align: 'right' },
  { header: 'q25', align: 'right' },
  { header: 'q50', align: 'right' },
  { header: 'q75', align: 'right' },
  { header: 'most frequent (count)' },
];

/** Said beside the counts when the fields are not comma-separated (a detected delimiter is worth seeing). */
const SEPARATED: Readonly<Record<string, string>> = {
  '\t': ', tab-separated', ';': ', semicolon-separated', '|': ', pipe-separated',
};

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'number' ? String(Number(value.toPrecision(12))) : String(value);
}

/** A number's every digit when its double rounds it (an integer past 2^53, a long decimal); else the number. */
const exactCell = (value: unknown, exact: string | undefined): unknown =>
  (exact !== undefined && String(value) !== exact ? exact : value);

/** The most frequent: exact counts, or lower bounds (`≥`) from the summary, or why none is listed. */
function topCell(c: ColumnSummary): string {
  if (c.top_values_below_error) return `none counted more than the error (${c.top_values_error})`;
  if (eachOnce(c)) return 'each value once';
  const atLeast = c.top_values_exact === false ? '≥' : '';
  return (c.top_values ?? []).map((t) => `${t.value} (${atLeast}${t.count})`).join(', ');
}

/** No value repeats: the list is empty because none is more frequent than another. */
const eachOnce = (c: ColumnSummary): boolean =>
  c.top_values?.length === 0 && c.distinct_exact === true && (c.count ?? 0) > 0 && c.distinct === c.count;

/** `≈` marks an estimate. */
function spreadRow(c: ColumnSummary): string[] {
  const distinct = c.distinct === undefined ? '' : `${c.distinct_exact ? '' : '≈'}${c.distinct}`;
  const percent = c.null_percentage === undefined ? '' : String(Number(c.null_percentage.toFixed(2)));
  const stddev = c.stddev === undefined ? '' : String(Number(c.stddev.toPrecision(6)));
  return [c.name, percent, distinct, stddev, ...[c.q25, c.q50, c.q75].map(cell), topCell(c)];
}

/** `--stats` may leave out how values spread (basic keeps only the null %): then so is the second table. */
const hasSpread = (c: ColumnSummary): boolean =>
  [c.distinct, c.stddev, c.q50, c.top_values].some((value) => value !== undefined);

const NULL_SHARE: TableColumn = { header: 'null %', align: 'right' };
const NULLS_AT = COLUMNS.findIndex((column) => column.header === 'nulls') + 1;

/** Without the spread table, the null % (which it shows) goes beside the nulls, when the answer has it. */
function withNullShare(columns: readonly ColumnSummary[], body: string[][]): [TableColumn[], string[][]] {
  if (!columns.some((c) => c.null_percentage !== undefined)) return [[...COLUMNS], body];
  const share = columns.map((c) => spreadRow(c)[1]!);
  const rows = body.map((row, k) => [...row.slice(0, NULLS_AT), share[k]!, ...row.slice(NULLS_AT)]);
  return [[...COLUMNS.slice(0, NULLS_AT), NULL_SHARE, ...COLUMNS.slice(NULLS_AT)], rows];
}

const indented = (table: string) => table.trimEnd().split('\n').map((line) => `  ${line}`);

/**
 * The two tables (what each column holds, how its values spread); when either is too wide for the terminal,
 * one record per column with every field, so that no column is shown twice.
 */
function tablesOf(columns: readonly ColumnSummary[], width: number | undefined): string[] {
  const body = columns.map((c) =>
    [c.name, c.type, c.count, c.nulls, exactCell(c.min, c.min_exact), exactCell(c.max, c.max_exact), c.mean].map(cell));
  if (!columns.some(hasSpread)) return indented(renderTable(...withNullShare(columns, body), width));
  // `--top 0` lists no value: then the table has no column for them, unless a column says its values are unique.
  const topShown = columns.some((c) => topCell(c) !== '');
  const spreadColumns = topShown ? SPREAD : SPREAD.slice(0, -1);
  const spread = columns.map((c) => spreadRow(c).slice(0, spreadColumns.length));
  if (width !== undefined && !(tableFits(COLUMNS, body, width) && tableFits(spreadColumns, spread, width))) {
    const all = body.map((row, k) => [...row, ...spread[k]!.slice(1)]);
    // Wider than either, so it too is shown a record at a time.
    return indented(renderTable([...COLUMNS, ...spreadColumns.slice(1)], all, width));
  }
  return [...indented(renderTable(COLUMNS, body, width)), '', ...indented(renderTable(spreadColumns, spread, width))];
}

/** `--format text`: a table per file (fitted to a terminal's `width`), then what could not be analyzed. */
export function renderAnalysisText(outcome: Outcome<FileAnalysis, FileCitation>, width?: number): string {
  const out: string[] = [];
  for (const file of outcome.established) {
    const separated = SEPARATED[file.a.delimiter] ?? '';
    out.push(`${file.q}: ${plural(file.a.rows, 'row')}, ${plural(file.a.columns.length, 'column')}${separated}`);
    out.push(...tablesOf(file.a.columns, width === undefined ? undefined : width - 2));
  }
  // When no file was analyzed the call fails with the first file's reason, which stderr shows: not said twice.
  const saidAsError = outcome.established.length === 0 ? outcome.unresolved[0] : undefined;
  for (const gap of outcome.unresolved) {
    out.push(gap === saidAsError ? `${gap.q}: not analyzed` : `${gap.q}: not analyzed: ${gap.reason}`);
  }
  out.push(`coverage: ${outcome.coverage}`);
  return `${out.join('\n')}\n`;
}
