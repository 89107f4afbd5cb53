// The column types of a typed import: given by --schema (`name:type,…`, any
// columns), the rest inferred from the records in the file's first
// SAMPLE_BYTES, as DuckDB's read_csv infers from a sample. A later row whose
// field does not fit its column is rejected with its line, never coerced.
import { StintCode } from '../../stint-codes.js';
import { StintError } from '../../../contract/stint-error.js';
import { readCsvRecords } from '../../../engine/worker/csv-records.js';
import { openByteSource } from '../../../engine/worker/byte-source.js';
import { PackedOutput } from '../../../engine/worker/packed-output.js';
import type { CsvHeader } from '../../csv-header.js';
import { SqlType, TypeTally } from '../map/sql-type.js';
import type { ColumnPlan } from './import-target.js';

/** The bytes after the header that type inference reads: whole records only. */
export const SAMPLE_BYTES = 4 << 20;
const NEWLINE = 10;

/** The types --schema gives, by column name; a name the header lacks or an unknown type is a usage error. */
export function parseSchema(text: string | undefined, names: readonly string[]): ReadonlyMap<string, SqlType> {
  const given = new Map<string, SqlType>();
  if (text === undefined) return given;
  const types = Object.values(SqlType) as string[];
  for (const part of text.split(',').filter((p) => p.trim() !== '')) {
    const at = part.lastIndexOf(':');
    const name = part.slice(0, at).trim();
    const type = part.slice(at + 1).trim().toLowerCase();
    if (at < 0 || !names.includes(name) || !types.includes(type)) throw badSchema(part, names, types);
    given.set(name, type as SqlType);
  }
  return given;
}

function badSchema(part: string, names: readonly string[], types: readonly string[]): StintError {
  return new StintError(StintCode.BadSchema, `--schema ${part.trim()}: expected column:type`, {
    context: { columns: names, types },
    fix_required: `Name a column of the header and one of the types ${types.join(', ')}`,
  });
}

/** The plan of an import's columns: --schema's types, the others inferred from the file's first records. */
export function columnPlan(
  path: string, header: CsvHeader, keyIndex: number | undefined, given: ReadonlyMap<string, SqlType>,
): (decimalDigits: number) => ColumnPlan {
  return (decimalDigits) => ({
    names: header.names,
    keyIndex,
    types() {
      const inferred = header.names.every((name) => given.has(name))
        ? [] : inferTypes(path, header, decimalDigits);
      return header.names.map((name, k) => given.get(name) ?? inferred[k]!);
    },
  });
}

/** Each column's narrowest type that the sample's values fit (text for a column with none). */
export function inferTypes(path: string, header: CsvHeader, decimalDigits: number): SqlType[] {
  const sample = readSample(path, header.dataStart);
  const width = header.names.length;
  const tallies = header.names.map(() => new TypeTally());
  readCsvRecords(sample, new PackedOutput(sample.length + 1024), {
    record(record) {
      if (record.count !== width) return false;
      for (let k = 0; k < width; k++) tallies[k]!.add(record.bytes, record.fieldStarts[k]!, record.fieldEnds[k]!);
      return false;
    },
    bad: () => undefined,
  });
  return tallies.map((tally) => tally.type(decimalDigits));
}

/** Up to SAMPLE_BYTES from `start`, cut after the last newline when the file goes on (no half a record). */
function readSample(path: string, start: number): Buffer {
  const source = openByteSource(path);
  try {
    const bytes = Buffer.alloc(SAMPLE_BYTES + 1);
    const read = source.read(bytes, 0, bytes.length, start);
    if (read <= SAMPLE_BYTES) return bytes.subarray(0, read);
    return bytes.subarray(0, bytes.lastIndexOf(NEWLINE, SAMPLE_BYTES - 1) + 1);
  } finally {
    source.close();
  }
}
