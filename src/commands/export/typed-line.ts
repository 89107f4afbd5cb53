// A database row read as text (every value as its database spells it, NULL
// as null) written as one line of the export's format: CSV fields, or NDJSON
// with numbers and booleans as JSON's own, timestamps as ISO 8601.
import { SqlType } from '../import/map/sql-type.js';
import { PackedOutput } from '../../engine/worker/packed-output.js';
import { csvField, ExportFormat } from './export-format.js';
import { BATCH_BYTES } from './level-source.js';
import type { SourceBatch } from './export-source.js';

/** A row's values as text, in column order; null is NULL. */
export type TextRow = readonly (string | null)[];

/** A timestamp as SQL spells it (`2024-01-15 08:30:00+00`) in ISO 8601 (`2024-01-15T08:30:00Z`). */
export function isoTimestamp(text: string): string {
  return `${text.slice(0, 10)}T${text.slice(11)}`.replace(/\+00$/, 'Z').replace(/([+-]\d\d)$/, '$1:00');
}

/** A number as JSON may hold it: SQL's digits are JSON's, but not NaN or Infinity (a string then). */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

function jsonValue(type: SqlType, text: string): string {
  if (type === SqlType.Boolean) return text;
  if ((type === SqlType.Integer || type === SqlType.Decimal) && JSON_NUMBER.test(text)) return text;
  return JSON.stringify(type === SqlType.Timestamp ? isoTimestamp(text) : text);
}

/** One row as a line of the format, given each column's type. */
export function typedLine(format: ExportFormat, names: readonly string[], types: readonly SqlType[]) {
  if (format === ExportFormat.Csv) {
    const field = (text: string | null, k: number) =>
      text === null ? '' : csvField(types[k] === SqlType.Timestamp ? isoTimestamp(text) : text);
    return (row: TextRow) => `${row.map(field).join(',')}\n`;
  }
  const keys = names.map((name) => `${JSON.stringify(name)}:`);
  return (row: TextRow) =>
    `{${row.map((text, k) => keys[k] + (text === null ? 'null' : jsonValue(types[k]!, text))).join(',')}}\n`;
}

/** Rows a database read at once, and the position of the last (the next read starts after it). */
export interface TextRead {
  readonly rows: readonly TextRow[];
  readonly last: string;
}

/** A database's reads as the export's batches of lines. */
export async function* textBatches(reads: AsyncIterable<TextRead>, line: (row: TextRow) => string):
AsyncIterable<SourceBatch> {
  const output = new PackedOutput(BATCH_BYTES);
  for await (const { rows, last } of reads) {
    if (rows.length === 0) continue;
    output.used = 0;
    for (const row of rows) {
      const text = line(row);
      output.reserve(3 * text.length);
      output.used += output.bytes.write(text, output.used);
    }
    yield { bytes: output.bytes.subarray(0, output.used), last, rows: rows.length };
  }
}
