import stringWidth from 'string-width';
import { escapeControls } from './control-escape.js';

export { escapeControls };

/** One column of a text table: its header, which side its values hug, and whether it may be cut to fit. */
export interface TableColumn {
  readonly header: string;
  readonly align?: 'left' | 'right';
  /** May be cut (with an ellipsis) when the table is wider than the terminal; the others keep their width. */
  readonly shrink?: boolean;
}

const GAP = '  ';
const ELLIPSIS = '…';
/** A cut column keeps at least this many cells: narrower, a value says nothing. */
const MIN_CUT_WIDTH = 6;
const segmenter = new Intl.Segmenter();

/** Cells a terminal gives the text: wide (CJK) characters take two, combining marks none. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** The text cut to at most `width` cells, ending in an ellipsis when anything was cut. */
export function cutToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let kept = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const cells = displayWidth(segment);
    if (used + cells > width - 1) break;
    kept += segment;
    used += cells;
  }
  return kept + ELLIPSIS;
}

function pad(text: string, width: number, align: TableColumn['align']): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

const NUMBER = /^[-+]?[\d.,]+(e[-+]?\d+)?%?$/i;

/** The narrowest a column may become: a cut number would read as another number, so numbers stay whole. */
function floorWidth(column: TableColumn, cells: readonly (readonly string[])[], k: number, natural: number): number {
  if (!column.shrink) return natural;
  const numbers = cells.slice(1).map((row) => row[k] ?? '').filter((cell) => NUMBER.test(cell));
  return Math.min(natural, Math.max(MIN_CUT_WIDTH, ...numbers.map(displayWidth)));
}

/**
 * Column widths that fit `width` cells: the shrinkable columns give up cells, widest first, down to their
 * floor. A table that cannot fit keeps its floors (the terminal wraps it) rather than cut numbers.
 */
function fitWidths(floors: readonly number[], natural: readonly number[], width: number | undefined): number[] {
  const widths = [...natural];
  if (width === undefined) return widths;
  let over = widths.reduce((sum, w) => sum + w, 0) + GAP.length * (widths.length - 1) - width;
  while (over > 0) {
    const candidates = widths
      .map((w, k) => ({ w, k }))
      .filter(({ w, k }) => w > floors[k]!);
    if (candidates.length === 0) break;
    const widest = candidates.reduce((a, b) => (b.w > a.w ? b : a));
    widths[widest.k]!--;
    over--;
  }
  return widths;
}

/**
 * A table for people: a header row, then one row per record, columns two spaces apart. Values are shown
 * with their control characters escaped; given a terminal `width`, shrinkable columns are cut to fit.
 */
export function renderTable(
  columns: readonly TableColumn[],
  rows: readonly (readonly string[])[],
  width?: number,
): string {
  const cells = [columns.map((c) => c.header), ...rows.map((row) => row.map(escapeControls))];
  const natural = columns.map((_, k) => Math.max(...cells.map((row) => displayWidth(row[k] ?? ''))));
  const floors = columns.map((column, k) => floorWidth(column, cells, k, natural[k]!));
  const widths = fitWidths(floors, natural, width);
  const lines = cells.map((row) => columns
    .map((column, k) => pad(cutToWidth(row[k] ?? '', widths[k]!), widths[k]!, column.align))
    .join(GAP)
    .trimEnd());
  return `${lines.join('\n')}\n`;
}
