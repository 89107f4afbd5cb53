// DuckDB's Parquet rows written by WebAssembly (../wasm/parquet-columns.ts,
// built by `npm run build` with the engine's field scanner in the same
// module): each tableful of the scanner's records is checked and written
// into columns in the module's own memory, with no call per field, then the
// columns are copied out as one Parquet file. The file is the one
// duckdb-parquet-rows.ts writes (their tests hold the two to one answer);
// that writer still takes a chunk with a leap second in a timestamp
// column, bytes that are not UTF-8, or a window too big for the module's
// memory (or whose columns would grow it past 2 GiB).
import { isUtf8 } from 'node:buffer';
import {
  fieldScanner, growMemory, MEMORY_LIMIT, scanFields, TABLE_BYTES, type FieldScanner, type FieldTable,
} from '../../../../engine/worker/csv-fields.js';
import type { PackedOutput } from '../../../../engine/worker/packed-output.js';
import { BadRow } from '../bad-row.js';
import { SqlType } from '../sql-type.js';
import { PhysicalType, type ColumnData, type GroupStart } from './parquet/column-pages.js';
import { writeParquetFile } from './parquet/parquet-file.js';

const WASM_URL = new URL('../wasm/parquet-columns.wasm', import.meta.url);

/** Windows up to this size are written here; a bigger one, whose columns could outgrow 2 GiB, by JavaScript. */
const MAX_WINDOW = 128 * 1024 * 1024;
/** A column's room beyond its estimate: this much, or (in a table of thousands of columns) its share of 8 MiB. */
const SLACK = 64 * 1024;
const slackOf = (width: number) => Math.max(256, Math.min(SLACK, Math.floor((8 << 20) / width) & ~15));

const CONSTANT_NAMES = [
  'TEXT', 'INT64', 'DOUBLE', 'BOOLEAN', 'INTEGER_TEXT', 'DECIMAL_TEXT', 'BOOLEAN_TEXT', 'DATE_TEXT',
  'TIMESTAMP_TEXT', 'LEAP_SECOND',
  'COLUMN_KIND', 'COLUMN_VALUES', 'COLUMN_CAPACITY', 'COLUMN_USED', 'COLUMN_DEFINED', 'COLUMN_GROUPS',
  'COLUMN_BYTES', 'GROUP_ROWS', 'BAD_LINE', 'BAD_REASON', 'BAD_BEFORE', 'BAD_COLUMN', 'BAD_BYTES',
  'FIELD_COUNT', 'TYPE_MISMATCH', 'ENTRY_FIELDS',
] as const;
type Constants = Record<(typeof CONSTANT_NAMES)[number], number>;

interface WriterExports {
  begin(definedAt: number, definedBytes: number): void;
  writeRows(
    b: number, table: number, from: number, count: number, width: number, columns: number, precision: number,
    scratch: number, lines: number, bad: number,
  ): number;
  rowsWritten(): number;
  badRows(): number;
  fullColumn(): number;
}

/** The memory the last instance used: where numberOf reads a number's text. */
let live: WebAssembly.Memory | undefined;
const imports = {
  numberOf: (at: number, length: number) => Number(Buffer.from(live!.buffer, at, length).toString('latin1')),
};

type Writer = { readonly scanner: FieldScanner; readonly w: WriterExports; readonly k: Constants };
let current: Writer | undefined;

/** This thread's instance of the module (a new one after a chunk that grew its memory too far). */
function writer(): Writer {
  const scanner = fieldScanner(WASM_URL, imports);
  if (current?.scanner === scanner) return current;
  live = scanner.x.memory;
  const k = Object.fromEntries(
    CONSTANT_NAMES.map((name) => [name, (scanner.exports[name] as WebAssembly.Global).value as number]),
  ) as Constants;
  current = { scanner, w: scanner.exports as unknown as WriterExports, k };
  return current;
}

/** What a chunk's rows leave beside the file: each kept row's line, and the bad rows. */
export interface RowsFound {
  /** Kept rows first.. have these lines. */
  keep(lines: Int32Array, first: number): void;
  bad(line: number, reason: BadRow, before: number, column?: number): void;
}

/** Where the current chunk's regions lie in the module's memory. */
interface Layout {
  readonly columns: number;
  readonly scratch: number;
  readonly bad: number;
  readonly lines: number;
  readonly defined: number;
  readonly definedBytes: number;
  readonly groups: number;
  readonly groupBytes: number;
  /** The end of the regions laid out so far. */
  top: number;
}

const align = (at: number) => (at + 15) & ~15;
const LF = 10;

/** Thrown out of a scan that found a record this writer leaves to the JavaScript one. */
const LEFT = Symbol('left to the JavaScript writer');

export class DuckWasmRows {
  /** Each column's values bytes per byte of the last chunk: its room in the next. */
  private readonly perByte: number[];
  /**
   * The chunk read last: the instance it was read by (the module lets an instance go once a chunk has grown its
   * memory too far, and the next read takes a fresh one), where it lies there, and its length.
   */
  private chunk: { readonly writer: Writer; readonly layout: Layout; readonly length: number } | undefined;

  private constructor(private readonly kinds: readonly number[], private readonly precision: number) {
    this.perByte = kinds.map(() => 0);
  }

  static of(types: readonly SqlType[], native: readonly boolean[], precision: number): DuckWasmRows {
    const { k } = writer();
    return new DuckWasmRows(types.map((type, c) => kindOf(k, type, native[c] === true)), precision);
  }

  /**
   * Whether this writer takes the window: small enough, and UTF-8 through the last line end (a window that is not
   * the file's end may stop inside a character; the records read from it end at a line end).
   */
  static takes(bytes: Uint8Array, atEof: boolean): boolean {
    return bytes.length <= MAX_WINDOW && isUtf8(atEof ? bytes : bytes.subarray(0, bytes.lastIndexOf(LF) + 1));
  }

  /**
   * Reads the window's records that start before `limit` into the columns (scanFields's answer): each kept row's
   * line and each bad row go to `found`. Answers false, with the rows found so far to be dropped, for a window
   * with a leap second, which duckdb-parquet-rows.ts spells, or whose columns would not fit the module's memory.
   */
  read(
    bytes: Uint8Array, limit: number, atEof: boolean, found: RowsFound,
  ): { consumed: number; newlines: number } | undefined | false {
    const instance = writer();
    const { scanner, w, k } = instance;
    this.chunk = undefined;
    const width = this.kinds.length;
    try {
      return scanFields(scanner, bytes, width, limit, atEof, (table) => {
        this.chunk ??= { writer: instance, layout: this.lay(scanner, k, table.chunkAt + bytes.length, bytes.length),
          length: bytes.length };
        this.write(scanner, w, k, table, found);
      });
    } catch (error) {
      if (error === LEFT) return false;
      throw error;
    }
  }

  /** Writes a tableful of records, making room in a column as the writer asks for it. */
  private write(scanner: FieldScanner, w: WriterExports, k: Constants, table: FieldTable, found: RowsFound): void {
    const { layout } = this.chunk!;
    const width = this.kinds.length;
    const first = w.rowsWritten();
    // The writer puts row r's line at lines + 4r: from here, the tableful's first row's lands at layout.lines.
    const lines = layout.lines - 4 * first;
    for (let from = 0; ;) {
      from = w.writeRows(table.chunkAt, table.tableAt, from, table.entries, width, layout.columns, this.precision,
        layout.scratch, lines, layout.bad);
      this.noteBad(scanner, w, k, found);
      if (from === table.entries) break;
      if (w.fullColumn() === k.LEAP_SECOND) throw LEFT;
      this.widen(scanner, k, w.fullColumn());
    }
    found.keep(new Int32Array(scanner.x.memory.buffer, layout.lines, w.rowsWritten() - first), first);
  }

  private noteBad(scanner: FieldScanner, w: WriterExports, k: Constants, found: RowsFound): void {
    const count = w.badRows();
    if (count === 0) return;
    const bad = new Int32Array(scanner.x.memory.buffer, this.chunk!.layout.bad, (count * k.BAD_BYTES) >> 2);
    for (let r = 0, at = 0; r < count; r++, at += k.BAD_BYTES >> 2) {
      const reason = bad[at + (k.BAD_REASON >> 2)]!;
      const line = bad[at + (k.BAD_LINE >> 2)]!;
      const before = bad[at + (k.BAD_BEFORE >> 2)]!;
      if (reason === k.TYPE_MISMATCH) found.bad(line, BadRow.TypeMismatch, before, bad[at + (k.BAD_COLUMN >> 2)]!);
      else found.bad(line, reason === k.FIELD_COUNT ? BadRow.FieldCount : scanner.reasons[reason]!, before);
    }
  }

  /**
   * Lays the chunk's regions out from `at`: the column records, a double per column for the row in hand, a
   * tableful of bad rows and of lines, each column's bits and row groups for the most rows a chunk of `length`
   * bytes holds, then each column's values, as much as it took per byte of the last chunk.
   */
  private lay(scanner: FieldScanner, k: Constants, at: number, length: number): Layout {
    const width = this.kinds.length;
    // A row of `width` fields takes at least `width` bytes: commas and a line end (the last may have none).
    const maxRows = Math.floor(length / width) + 1;
    const tableful = Math.floor(TABLE_BYTES / k.ENTRY_FIELDS);
    const columns = align(at);
    const scratch = align(columns + width * k.COLUMN_BYTES);
    const bad = align(scratch + 8 * width);
    const lines = align(bad + tableful * k.BAD_BYTES);
    const defined = align(lines + 4 * tableful);
    const definedBytes = (maxRows >> 3) + 1;
    const groups = align(defined + width * definedBytes);
    const groupBytes = 8 * (Math.floor(maxRows / k.GROUP_ROWS) + 1);
    const layout: Layout = { columns, scratch, bad, lines, defined, definedBytes, groups, groupBytes, top: 0 };
    layout.top = align(groups + width * groupBytes);
    const rooms = this.kinds.map((_, c) => align(Math.ceil(this.perByte[c]! * length * 1.125)
      || Math.ceil(length / width)) + slackOf(width));
    this.reserve(scanner, layout.top + rooms.reduce((sum, room) => sum + room, 0));
    const record = new Int32Array(scanner.x.memory.buffer, columns, (width * k.COLUMN_BYTES) >> 2);
    for (let c = 0, o = 0; c < width; c++, o += k.COLUMN_BYTES >> 2) {
      record[o + (k.COLUMN_KIND >> 2)] = this.kinds[c]!;
      record[o + (k.COLUMN_VALUES >> 2)] = layout.top;
      record[o + (k.COLUMN_CAPACITY >> 2)] = rooms[c]!;
      record[o + (k.COLUMN_USED >> 2)] = 0;
      record[o + (k.COLUMN_DEFINED >> 2)] = defined + c * definedBytes;
      record[o + (k.COLUMN_GROUPS >> 2)] = groups + c * groupBytes;
      layout.top += rooms[c]!;
    }
    (scanner.exports as unknown as WriterExports).begin(defined, width * definedBytes);
    return layout;
  }

  /** Doubles column c's room: where it is when it ends the regions, else in a new region at their end. */
  private widen(scanner: FieldScanner, k: Constants, c: number): void {
    const { layout } = this.chunk!;
    const o = (layout.columns + c * k.COLUMN_BYTES) >> 2;
    const record = () => new Int32Array(scanner.x.memory.buffer);
    const values = record()[o + (k.COLUMN_VALUES >> 2)]!;
    const capacity = record()[o + (k.COLUMN_CAPACITY >> 2)]!;
    const room = 2 * capacity + slackOf(this.kinds.length);
    const last = values + capacity === layout.top;
    const at = last ? values : layout.top;
    this.reserve(scanner, at + room);
    if (!last) {
      new Uint8Array(scanner.x.memory.buffer).copyWithin(at, values, values + record()[o + (k.COLUMN_USED >> 2)]!);
      record()[o + (k.COLUMN_VALUES >> 2)] = at;
    }
    record()[o + (k.COLUMN_CAPACITY >> 2)] = room;
    layout.top = at + room;
  }

  /** Grows the memory to `bytes`; past the module's limit, the window is left to the JavaScript writer. */
  private reserve(scanner: FieldScanner, bytes: number): void {
    if (bytes > MEMORY_LIMIT) throw LEFT;
    growMemory(scanner.x.memory, bytes);
  }

  /** Writes the rows read since the last read() as one Parquet file at the end of `output`. */
  writeFile(output: PackedOutput): void {
    const { writer: { scanner, w, k }, layout, length } = this.chunk!;
    const rows = w.rowsWritten();
    const { buffer } = scanner.x.memory;
    const record = new Int32Array(buffer);
    const groupCount = Math.ceil(rows / k.GROUP_ROWS);
    const columns: ColumnData[] = this.kinds.map((kind, c) => {
      const o = (layout.columns + c * k.COLUMN_BYTES) >> 2;
      const used = record[o + (k.COLUMN_USED >> 2)]!;
      this.perByte[c] = used / Math.max(length, 1);
      const groupsAt = record[o + (k.COLUMN_GROUPS >> 2)]! >> 2;
      const groups: GroupStart[] = Array.from({ length: groupCount }, (_, g) =>
        ({ at: record[groupsAt + 2 * g]!, nulls: record[groupsAt + 2 * g + 1]! }));
      return {
        physical: physicalOf(k, kind), used, rows, groups,
        values: new Uint8Array(buffer, record[o + (k.COLUMN_VALUES >> 2)]!, used),
        defined: new Uint8Array(buffer, record[o + (k.COLUMN_DEFINED >> 2)]!, layout.definedBytes),
      };
    });
    writeParquetFile(output, columns, rows);
    // The instance may be one the module let go: its memory goes with it.
    this.chunk = undefined;
  }
}

/** How the writer checks and writes a column of `type`, in its own type when `native`. */
function kindOf(k: Constants, type: SqlType, native: boolean): number {
  switch (type) {
    case SqlType.Text: return k.TEXT;
    case SqlType.Integer: return native ? k.INT64 : k.INTEGER_TEXT;
    case SqlType.Decimal: return native ? k.DOUBLE : k.DECIMAL_TEXT;
    case SqlType.Boolean: return native ? k.BOOLEAN : k.BOOLEAN_TEXT;
    case SqlType.Date: return k.DATE_TEXT;
    case SqlType.Timestamp: return k.TIMESTAMP_TEXT;
  }
}

function physicalOf(k: Constants, kind: number): PhysicalType {
  switch (kind) {
    case k.INT64: return PhysicalType.Int64;
    case k.DOUBLE: return PhysicalType.Double;
    case k.BOOLEAN: return PhysicalType.Boolean;
    default: return PhysicalType.ByteArray;
  }
}
