import { extname } from 'node:path';

/** A format people hand to a CSV tool by mistake, recognised from an input's first bytes (and its name). */
export interface OtherFormat {
  /** Stable, for programs: `context.format` of NOT_CSV. */
  readonly format: 'parquet' | 'zip' | 'json' | 'ndjson';
  /** For people: what the file is. */
  readonly name: string;
}

const PARQUET_MAGIC = Buffer.from('PAR1');
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const JSON_NAMES: ReadonlySet<string> = new Set(['.json', '.ndjson', '.jsonl', '.geojson']);

/**
 * What `bytes` (an input's first bytes, a BOM skipped) are when they are a known non-CSV format, else undefined.
 * JSON is recognised only where a CSV header could hardly be meant: a first line that is a whole JSON object or
 * array, or a first byte `{` or `[` in a file whose name says JSON.
 */
export function otherFormatOf(bytes: Buffer, label: string): OtherFormat | undefined {
  if (bytes.subarray(0, 4).equals(PARQUET_MAGIC)) return { format: 'parquet', name: 'a Parquet file' };
  const zip = { format: 'zip', name: 'a ZIP archive (an Excel workbook is one)' } as const;
  if (bytes.subarray(0, 4).equals(ZIP_MAGIC)) return zip;
  const text = bytes.toString('utf8').trimStart();
  if (text[0] !== '{' && text[0] !== '[') return undefined;
  const lines = text.split('\n', 3).map((line) => line.trim()).filter((line) => line !== '');
  const whole = lines.filter(isJsonContainer).length;
  if (whole >= 2) return { format: 'ndjson', name: 'NDJSON (one JSON value a line)' };
  if (whole === 1 || JSON_NAMES.has(extname(label).toLowerCase())) return { format: 'json', name: 'JSON' };
  return undefined;
}

function isJsonContainer(line: string): boolean {
  if (!line.startsWith('{') && !line.startsWith('[')) return false;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/** What to do with such a file: convert it to CSV first (DuckDB reads JSON, NDJSON and Parquet). */
export function convertHint(other: OtherFormat, label: string): string {
  if (other.format === 'zip') return 'Unzip it, or save the workbook\'s sheet as CSV, and pass that file';
  const quoted = label.replaceAll("'", "''");
  return `Convert it to CSV first, for example: duckdb -c "COPY (FROM '${quoted}') TO 'out.csv'"`;
}
