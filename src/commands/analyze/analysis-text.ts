import type { Outcome } from '../../contract/outcome.js';
import { plural } from '../../runtime/cli/plural.js';
import type { FileAnalysis, FileCitation } from './file-analysis.js';

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'number' ? String(Number(value.toPrecision(12))) : String(value);
}

/** `--format text`: a table per file, then what could not be analyzed. */
export function renderAnalysisText(outcome: Outcome<FileAnalysis, FileCitation>): string {
  const out: string[] = [];
  for (const file of outcome.established) {
    out.push(`${file.q}: ${plural(file.a.rows, 'row')}, ${plural(file.a.columns.length, 'column')}`);
    const heading = ['column', 'type', 'count', 'nulls', 'min', 'max', 'mean'];
    const body = file.a.columns.map((c) => [c.name, c.type, c.count, c.nulls, c.min, c.max, c.mean].map(cell));
    const rows = [heading, ...body];
    const widths = rows[0]!.map((_, k) => Math.min(24, Math.max(...rows.map((r) => r[k]!.length))));
    for (const row of rows) out.push(`  ${row.map((v, k) => v.slice(0, 24).padEnd(widths[k]!)).join('  ')}`.trimEnd());
  }
  for (const gap of outcome.unresolved) out.push(`${gap.q}: not analyzed: ${gap.reason}`);
  out.push(`coverage: ${outcome.coverage}`);
  return `${out.join('\n')}\n`;
}
