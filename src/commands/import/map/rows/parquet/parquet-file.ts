// A chunk's rows as a Parquet file DuckDB loads (read_parquet): row groups
// of DuckDB's own size, one uncompressed data page per column of each,
// every column nullable. DuckDB reads Parquet with less work than CSV (no
// quotes to find, no line ends, and numbers already numbers).
import type { PackedOutput } from '../../../../../engine/worker/packed-output.js';
import { CompactWriter, ThriftType, varint } from './thrift-compact.js';
import { GROUP_ROWS, PhysicalType, type ColumnData } from './column-pages.js';

const MAGIC = Buffer.from('PAR1');

/** The few values of Parquet's enumerations the file names. */
const OPTIONAL = 1;
const UTF8 = 0;
const DATA_PAGE = 0;
const PLAIN = 0;
const RLE = 3;
const UNCOMPRESSED = 0;

/** The column's name in the file: c0, c1 … (the insert selects them by these names). */
export const parquetColumnName = (k: number): string => `c${k}`;

/** Rows `first`.. of a column, `rows` of them (`nulls` NULL), one row group's worth. */
interface ColumnPart {
  readonly column: ColumnData;
  readonly first: number;
  readonly rows: number;
  readonly nulls: number;
  /** The part's values: column.values[from, to). */
  readonly from: number;
  readonly to: number;
}

/** The column's rows in row group `g`. */
function partOf(column: ColumnData, g: number): ColumnPart {
  const first = g * GROUP_ROWS;
  const to = column.groups[g + 1]?.at ?? column.used;
  const { at, nulls } = column.groups[g]!;
  return { column, first, rows: Math.min(GROUP_ROWS, column.rows - first), nulls, from: at, to };
}

/**
 * A part's definition levels, in the RLE / bit-packed hybrid encoding with a bit's width: one run of ones when no
 * row is NULL, else the column's bits as they are (a bit-packed run holds eight rows a byte, first row lowest;
 * a row group starts at a whole byte, GROUP_ROWS being a multiple of eight).
 */
function definitionLevels(part: ColumnPart): Uint8Array {
  if (part.nulls === 0) return runOfOnes(part.rows);
  const groups = (part.rows + 7) >> 3;
  const header = varint(groups * 2 + 1);
  const levels = new Uint8Array(header.length + groups);
  levels.set(header);
  levels.set(part.column.defined.subarray(part.first >> 3, (part.first >> 3) + groups), header.length);
  return levels;
}

function runOfOnes(rows: number): Uint8Array {
  const header = varint(rows * 2);
  const levels = new Uint8Array(header.length + 1);
  levels.set(header);
  levels[header.length] = 1;
  return levels;
}

function pageHeader(rows: number, size: number): Uint8Array {
  return new CompactWriter()
    .i32(1, DATA_PAGE).i32(2, size).i32(3, size)
    .begin(5).i32(1, rows).i32(2, PLAIN).i32(3, RLE).i32(4, RLE).end()
    .end().written;
}

/** Where a column chunk was written: its offset and its size in the file. */
interface Placed {
  readonly offset: number;
  readonly size: number;
}

/** Appends the part's page (header, levels, values) to `output`. */
function writePart(output: PackedOutput, part: ColumnPart): Placed {
  const levels = definitionLevels(part);
  const values = part.column.values.subarray(part.from, part.to);
  const body = 4 + levels.length + values.length;
  const header = pageHeader(part.rows, body);
  const offset = output.used;
  const out = output.reserve(header.length + body);
  let o = offset;
  out.set(header, o);
  o += header.length;
  out.writeUInt32LE(levels.length, o);
  out.set(levels, o + 4);
  o += 4 + levels.length;
  out.set(values, o);
  output.used = o + values.length;
  return { offset, size: output.used - offset };
}

/** The schema: a root, and each column in its type (text as UTF-8), every one of them nullable. */
function writeSchema(meta: CompactWriter, columns: readonly ColumnData[]): void {
  meta.list(2, ThriftType.Struct, columns.length + 1);
  meta.begin().string(4, 'schema').i32(5, columns.length).end();
  columns.forEach(({ physical }, k) => {
    meta.begin().i32(1, physical).i32(3, OPTIONAL).string(4, parquetColumnName(k));
    if (physical === PhysicalType.ByteArray) meta.i32(6, UTF8);
    meta.end();
  });
}

/** A row group of `rows` rows, its columns' chunks where they were placed. */
function writeRowGroup(meta: CompactWriter, columns: readonly ColumnData[], placed: readonly Placed[], rows: number) {
  meta.begin().list(1, ThriftType.Struct, placed.length);
  placed.forEach(({ offset, size }, k) => {
    meta.begin().i64(2, offset).begin(3)
      .i32(1, columns[k]!.physical).list(2, ThriftType.I32, 2).i32Item(PLAIN).i32Item(RLE)
      .list(3, ThriftType.Binary, 1).textItem(parquetColumnName(k))
      .i32(4, UNCOMPRESSED).i64(5, rows).i64(6, size).i64(7, size).i64(9, offset)
      .end().end();
  });
  meta.i64(2, placed.reduce((sum, { size }) => sum + size, 0)).i64(3, rows).end();
}

/** Writes the columns (of `rows` rows each) as a whole Parquet file at the end of `output`. */
export function writeParquetFile(output: PackedOutput, columns: readonly ColumnData[], rows: number): void {
  output.reserve(MAGIC.length).set(MAGIC, output.used);
  output.used += MAGIC.length;
  const groups = Math.ceil(rows / GROUP_ROWS);
  const placed = Array.from({ length: groups }, (_, g) =>
    columns.map((column) => writePart(output, partOf(column, g))));
  const meta = new CompactWriter().i32(1, 1);
  writeSchema(meta, columns);
  meta.i64(3, rows).list(4, ThriftType.Struct, groups);
  placed.forEach((group, g) => writeRowGroup(meta, columns, group, Math.min(GROUP_ROWS, rows - g * GROUP_ROWS)));
  const footer = meta.string(6, 'stint').end().written;
  const out = output.reserve(footer.length + 4 + MAGIC.length);
  out.set(footer, output.used);
  out.writeUInt32LE(footer.length, output.used + footer.length);
  out.set(MAGIC, output.used + footer.length + 4);
  output.used += footer.length + 4 + MAGIC.length;
}
