import { extname } from 'node:path';
import type { PackedOutput } from '../../engine/worker/packed-output.js';
import { appendCsvRow } from './csv-row-bytes.js';

/** Formats `stint export` writes. */
export const ExportFormat = { Csv: 'csv', Ndjson: 'ndjson' } as const;
export type ExportFormat = (typeof ExportFormat)[keyof typeof ExportFormat];

const NEEDS_QUOTES = /[",\r\n]/;
/** A CSV field, quoted when it holds a quote, a comma or a line end. */
export const csvField = (value: string) => (NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** The format asked for, else the one the output's extension names, else CSV. */
export function formatOf(asked: ExportFormat | undefined, output: string): ExportFormat {
  return asked ?? (extname(output) === '.ndjson' ? ExportFormat.Ndjson : ExportFormat.Csv);
}

/** What comes before the first row: a CSV header line; nothing for NDJSON. */
export function headerOf(format: ExportFormat, columns: readonly string[]): string {
  return format === ExportFormat.Csv ? `${columns.map(csvField).join(',')}\n` : '';
}

/** One stored row (its fields, in column order) as one line of the format. */
export function rowEncoder(format: ExportFormat, columns: readonly string[]): (fields: readonly string[]) => string {
  if (format === ExportFormat.Csv) return (fields) => `${fields.map(csvField).join(',')}\n`;
  return (fields) => `${JSON.stringify(Object.fromEntries(columns.map((name, k) => [name, fields[k]])))}\n`;
}

/** Appends one stored row to the output in the format. */
export type RowWriter = (output: PackedOutput, row: Uint8Array) => void;

/** Text appended as UTF-8 (at most three bytes a UTF-16 unit). */
function appendText(output: PackedOutput, text: string): void {
  output.reserve(3 * text.length);
  output.used += output.bytes.write(text, output.used);
}

/** CSV straight from a row's bytes (csv-row-bytes.ts), else from its decoded fields, as NDJSON always is. */
export function rowWriter(
  format: ExportFormat, columns: readonly string[], unpack: (bytes: Uint8Array) => unknown,
): RowWriter {
  const encode = rowEncoder(format, columns);
  const decoded: RowWriter = (output, row) => appendText(output, encode(unpack(row) as string[]));
  if (format !== ExportFormat.Csv) return decoded;
  return (output, row) => {
    if (!appendCsvRow(output, row)) decoded(output, row);
  };
}
