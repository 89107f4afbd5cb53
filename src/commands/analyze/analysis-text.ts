import type { Outcome } from '../../contract/outcome.js';
import { plural } from '../../runtime/cli/plural.js';
import type { FileAnalysis, FileCitation } from './file-analysis.js';
import { renderTable, type TableColumn } from '../../runtime/cli/text-table.js';

const COLUMNS: readonly TableColumn[] = [
  { header: 'column', shrink: true },
  { header: 'type' },
  { header: 'count', align: 'right' },
  { header: 'nulls', align: 'right' },
  { header: 'min', shrink: true },
  { header: 'max', shrink: true },
  { header: 'mean', align: 'right' },
];

/** Said beside the counts when the fields are not comma-separated (a detected delimiter is worth seeing). */
const SEPARATED: Readonly<Record<string, string>> = {
  '\t': ', tab-separated', ';': ', semicolon-separated', '|': ', pipe-separated',
};

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'number' ? String(Number(value.toPrecision(12))) : String(value);
}

/** `--format text`: a table per file (fitted to a terminal's `width`), then what could not be analyzed. */
export function renderAnalysisText(outcome: Outcome<FileAnalysis, FileCitation>, width?: number): string {
  const out: string[] = [];
  for (const file of outcome.established) {
    const separated = SEPARATED[file.a.delimiter] ?? '';
    out.push(`${file.q}: ${plural(file.a.rows, 'row')}, ${plural(file.a.columns.length, 'column')}${separated}`);
    const body = file.a.columns.map((c) => [c.name, c.type, c.count, c.nulls, c.min, c.max, c.mean].map(cell));
    const table = renderTable(COLUMNS, body, width === undefined ? undefined : width - 2);
    out.push(...table.trimEnd().split('\n').map((line) => `  ${line}`));
  }
  for (const gap of outcome.unresolved) out.push(`${gap.q}: not analyzed: ${gap.reason}`);
  out.push(`coverage: ${outcome.coverage}`);
  return `${out.join('\n')}\n`;
}
