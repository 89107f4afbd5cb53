import { displayWidth } from './display-width.js';
import { escapeControls } from './control-escape.js';
import { wrapText } from './wrap-text.js';

export { escapeControls };
export { displayWidth };

/** One column of a text table: its header, and which side its values hug. */
export interface TableColumn {
  readonly header: string;
  readonly align?: 'left' | 'right';
}

const GAP = '  ';

function pad(text: string, width: number, align: TableColumn['align']): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/**
 * A table for people: a header row, then one row per record, columns two spaces apart. Values are shown
 * with their control characters escaped and never cut: a table wider than a terminal's `width` is shown one
 * record at a time instead (as psql's expanded display), each field on its own line, long values wrapped.
 */
export function renderTable(
  columns: readonly TableColumn[],
  rows: readonly (readonly string[])[],
  width?: number,
): string {
  const cells = cellsOf(columns, rows);
  const widths = widthsOf(cells, columns.length);
  if (width !== undefined && !fits(widths, width)) return renderRecords(cells, width);
  const lines = cells.map((row) => columns
    .map((column, k) => pad(row[k] ?? '', widths[k]!, column.align))
    .join(GAP)
    .trimEnd());
  return `${lines.join('\n')}\n`;
}

const cellsOf = (columns: readonly TableColumn[], rows: readonly (readonly string[])[]) =>
  [columns.map((c) => c.header), ...rows.map((row) => row.map(escapeControls))];

const widthsOf = (cells: readonly (readonly string[])[], count: number) =>
  Array.from({ length: count }, (_, k) => Math.max(...cells.map((row) => displayWidth(row[k] ?? ''))));

const fits = (widths: readonly number[], width: number) =>
  widths.reduce((sum, w) => sum + w, 0) + GAP.length * (widths.length - 1) <= width;

/** Whether renderTable shows these rows as a table within `width` (not one record at a time). */
export function tableFits(
  columns: readonly TableColumn[], rows: readonly (readonly string[])[], width: number,
): boolean {
  return fits(widthsOf(cellsOf(columns, rows), columns.length), width);
}

/** Each record as `header0: value`, then its other non-empty fields one a line under it, wrapped to `width`. */
function renderRecords(cells: readonly (readonly string[])[], width: number): string {
  const [headers, ...records] = cells;
  const labelWidth = Math.max(...headers!.slice(1).map(displayWidth));
  const blocks = records.map((record) => {
    const fields = headers!.slice(1).flatMap((header, k) => {
      const value = record[k + 1] ?? '';
      return value === '' ? [] : [wrapText(`${GAP}${pad(header, labelWidth, 'left')}${GAP}${value}`, width)];
    });
    return [`${headers![0]}: ${record[0] ?? ''}`, ...fields].join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}
