// Worker side of `stint import`: read a chunk's records and check each, so
// the main thread only writes. Into LevelDB they are packed as MessagePack
// arrays of strings as they are scanned (what msgpackr's unpack reads back
// as string[]). A database target's rows are written in the form it loads
// (rows/row-format.ts), from the fields a WebAssembly scanner finds
// (csv-fields.ts), so the main thread only copies them.
import { fieldText, readCsvRecords, type PackedRecord, type RecordSink } from '../../../engine/worker/csv-records.js';
import { readCsvFields } from '../../../engine/worker/csv-fields.js';
import { emptyAsNil, MARGIN, PackedOutput } from '../../../engine/worker/packed-output.js';
import type { ChunkInfo, WindowInfo, WindowResult } from '../../../engine/worker/worker-protocol.js';
import { BadRow } from './bad-row.js';
import { spanDigest } from './import-ledger.js';
import { releaseSlot, RowSlots, type Slot, type SlotFlag } from './row-slots.js';
import { fits, ownSqlType, SqlType } from './sql-type.js';
import { RowFormat } from './rows/row-format.js';
import { appendCopyRecord } from './rows/copy-text-row.js';
import { appendJsonbRecord } from './rows/jsonb-rows.js';
import { DuckParquetRows } from './rows/duckdb-parquet-rows.js';
import { DuckWasmRows, type RowsFound } from './rows/duckdb-wasm-rows.js';

export interface ImportMapOptions {
  readonly width: number;
  /** Index of the --key column, when upserting. */
  readonly keyIndex?: number;
  /** A typed target's column types: a row with a field that does not fit its column is a bad row. */
  readonly types?: readonly SqlType[];
  /** The significant digits a decimal column holds. */
  readonly precision?: number;
  /** The form rows are written in (MessagePack when not given). */
  readonly rowFormat?: RowFormat;
  /** The columns the table holds in the very type stint declares for theirs: a Parquet file has them so. */
  readonly nativeColumns?: readonly boolean[];
}

/** A chunk's rows, packed back to back; line numbers are offsets from the chunk's first line. */
export interface ImportChunk {
  readonly rows: number;
  readonly packed: Uint8Array;
  /** Set when `packed`, `ends` and `lines` are in a slot shared with the worker: hand it back (releaseSlot). */
  readonly slot: SlotFlag | null;
  /** End offset of each row in `packed`. */
  readonly ends: Uint32Array;
  readonly lines: Uint32Array;
  readonly keys: string[] | null;
  readonly bad: {
    readonly line: number;
    readonly reason: BadRow;
    readonly before: number;
    /** The column whose field does not fit its type. */
    readonly column?: number;
  }[];
  /** The digest of the chunk's bytes, for the import's ledger. */
  readonly digest: Uint8Array;
}

/** This thread's output: a shared slot per chunk, or (past the slots) its own buffer, which a reply copies whole. */
const output = new PackedOutput(1 << 20);
let own = output.bytes;
const slots = new RowSlots();
/** The largest packed chunk so far: slots are made at least this big. */
let slotSize = 0;
let ends = new Uint32Array(1 << 16);
let lines = new Uint32Array(1 << 16);

function growRows(): void {
  const e = new Uint32Array(ends.length * 2); e.set(ends); ends = e;
  const l = new Uint32Array(lines.length * 2); l.set(lines); lines = l;
}

/** The self-framing map the pool calls: the chunk ends where its records do (see readCsvRecords). */
export function mapWindow(bytes: Uint8Array, info: WindowInfo): WindowResult<ImportChunk> {
  return read(bytes, info, info.limit, info.atEof);
}

/** One chunk of whole records. */
export function map(bytes: Uint8Array, info: ChunkInfo): ImportChunk {
  return read(bytes, info, bytes.length, true)!.partial;
}

type Scanned = Pick<ImportChunk, 'rows' | 'keys' | 'bad'> & {
  readonly framed: { consumed: number; newlines: number } | undefined;
};

function read(bytes: Uint8Array, info: ChunkInfo, limit: number, atEof: boolean): WindowResult<ImportChunk> {
  // Packed rows take about as many bytes as their CSV; a slot that proves too small is replaced by a bigger one.
  const slot = slots.take(Math.max(slotSize, bytes.length + (bytes.length >> 3) + 4 * MARGIN));
  output.bytes = slot?.bytes ?? own;
  output.used = 0;
  const cloned = info.options as ImportMapOptions;
  const options = cloned.types ? { ...cloned, types: cloned.types.map(ownSqlType) } : cloned;
  const writer = options.types ? writerFor(options, options.types) : undefined;
  const scanned = scan(bytes, options, writer, limit, atEof);
  const { framed, ...found } = scanned;
  if (framed && writer?.finish) {
    writer.finish(output);
    ends.fill(output.used, 0, found.rows);
  }
  if (!slot) own = output.bytes;
  if (!framed) {
    releaseSlot(slot?.flag ?? null);
    return undefined;
  }
  const digest = spanDigest(bytes.subarray(0, framed.consumed));
  return { partial: { ...found, ...(slot ? inSlot(slot, found.rows) : ownTables(found.rows)), digest }, ...framed };
}

/** The first typed column whose field in the record does not fit, or -1. */
function misfit(record: PackedRecord, types: readonly SqlType[], precision: number): number {
  for (let k = 0; k < types.length; k++) {
    const type = types[k]!;
    if (type !== SqlType.Text && !fits(type, record.bytes, record.fieldStarts[k]!, record.fieldEnds[k]!, precision)) {
      return k;
    }
  }
  return -1;
}

/** A typed row's empty fields become nil, so that the main thread binds them as NULL as they are unpacked. */
function emptiesAsNil(record: PackedRecord): void {
  for (let k = 0; k < record.count; k++) {
    if (record.fieldStarts[k] === record.fieldEnds[k]) emptyAsNil(output, record.fieldStarts[k]!);
  }
}

/**
 * How a kept record is written in another form than packed: into the output as it is read, or (a form that is
 * a whole file, not a row after another) kept aside and written once the chunk is read, every row then ending
 * at the file's end.
 */
interface RecordWriter {
  /** Writes a record whose fields were checked against their columns' types. */
  write?(output: PackedOutput, record: PackedRecord): void;
  /** Or checks each field as it writes it: answers the first column whose field does not fit (none written), or -1. */
  writeChecked?(output: PackedOutput, record: PackedRecord): number;
  finish?(output: PackedOutput): void;
  /**
   * Or reads the window's records itself, noting each kept row's line and each bad row, and answers what
   * readCsvFields would (null for undefined); finish then writes them. False leaves them to writeChecked.
   */
  readWindow?(bytes: Uint8Array, limit: number, atEof: boolean, found: RowsFound): Framing | null | false;
}

type Framing = { consumed: number; newlines: number };

/**
 * The last chunk's Parquet columns, kept for the next one of the same columns (their buffers grow to a chunk's
 * rows); each chunk's options are a copy, so its columns are known by their types and forms.
 */
let parquetRows: {
  readonly columns: string;
  readonly wasm: DuckWasmRows;
  /** Made when a window first needs it: a column's buffers are 64 KiB from the start. */
  js?: DuckParquetRows;
} | undefined;

/** DuckDB's Parquet rows: written by WebAssembly when it takes the window, else record by record. */
function duckParquetWriter(types: readonly SqlType[], native: readonly boolean[], precision: number): RecordWriter {
  const columns = `${types.join()} ${native.join()} ${precision}`;
  if (parquetRows?.columns !== columns) parquetRows = { columns, wasm: DuckWasmRows.of(types, native, precision) };
  const kept = parquetRows;
  let js = (): DuckParquetRows => {
    const rows = (kept.js ??= new DuckParquetRows(types, native, precision));
    rows.clear();
    js = () => rows;
    return rows;
  };
  let byWasm = false;
  return {
    writeChecked: (_, record) => js().append(record),
    readWindow: (bytes, limit, atEof, found) => {
      const framed = DuckWasmRows.takes(bytes, atEof) ? kept.wasm.read(bytes, limit, atEof, found) : false;
      byWasm = framed !== false;
      return framed ?? null;
    },
    finish: (into) => (byWasm ? kept.wasm.writeFile(into) : js().writeFile(into)),
  };
}

/** How a kept record is written in the options' rowFormat (undefined: it stays as packed), given the types. */
function writerFor(options: ImportMapOptions, types: readonly SqlType[]): RecordWriter | undefined {
  const marks = (type: SqlType) => types.map((t) => t === type);
  switch (options.rowFormat ?? RowFormat.MessagePack) {
    case RowFormat.CopyText: return { write: appendCopyRecord };
    case RowFormat.Jsonb: {
      const booleans = marks(SqlType.Boolean);
      return { write: (into, record) => appendJsonbRecord(into, record, booleans) };
    }
    case RowFormat.DuckDbParquet: return duckParquetWriter(types, options.nativeColumns ?? [], options.precision ?? 0);
    default: return undefined;
  }
}

/** Packs the records into `output` and notes each row's end and line, and every bad row. */
function scan(
  bytes: Uint8Array, options: ImportMapOptions, writer: RecordWriter | undefined, limit: number, atEof: boolean,
): Scanned {
  const { width, keyIndex, types, precision = 0 } = options;
  let rows = 0;
  const keys: string[] | null = keyIndex === undefined ? null : [];
  const bad: ImportChunk['bad'][number][] = [];
  const sink: RecordSink = {
    record(record, line) {
      if (record.count !== width) {
        bad.push({ line, reason: BadRow.FieldCount, before: rows });
        return false;
      }
      if (keys && record.fieldEnds[keyIndex!] === record.fieldStarts[keyIndex!]) {
        bad.push({ line, reason: BadRow.MissingKey, before: rows });
        return false;
      }
      const column = writer?.writeChecked ? writer.writeChecked(output, record)
        : types ? misfit(record, types, precision) : -1;
      if (column >= 0) {
        bad.push({ line, reason: BadRow.TypeMismatch, before: rows, column });
        return false;
      }
      keys?.push(fieldText(record, keyIndex!));
      if (writer) writer.write?.(output, record);
      else if (types) emptiesAsNil(record);
      if (rows === ends.length) growRows();
      ends[rows] = output.used;
      lines[rows] = line;
      rows++;
      return !writer;
    },
    bad(line, reason) {
      bad.push({ line, reason, before: rows });
    },
  };
  // A keyed import's rows are packed (import-run.ts), never a file: the writer that reads for itself checks no key.
  if (writer?.readWindow && !keys) {
    const whole = writer.readWindow(bytes, limit, atEof, {
      keep(kept, first) {
        while (first + kept.length > ends.length) growRows();
        lines.set(kept, first);
        rows = first + kept.length;
      },
      bad(line, reason, before, column) {
        bad.push({ line, reason, before, ...(column === undefined ? {} : { column }) });
      },
    });
    if (whole !== false) return { framed: whole ?? undefined, rows, keys, bad };
    // Left to be written record by record: what the writer found so far goes.
    rows = 0;
    bad.length = 0;
  }
  // Written in another form, a record's fields are read where they are, not packed.
  const framed = writer ? readCsvFields(bytes, width, sink, limit, atEof)
    : readCsvRecords(bytes, output, sink, limit, atEof);
  return { framed, rows, keys, bad };
}

/** Without a slot: the row tables copied to the chunk's size, and `packed` a view the reply's clone copies whole. */
function ownTables(rows: number): Pick<ImportChunk, 'packed' | 'slot' | 'ends' | 'lines'> {
  const packed = output.bytes.subarray(0, output.used);
  return { packed, slot: null, ends: ends.slice(0, rows), lines: lines.slice(0, rows) };
}

/** The row tables go into the slot after the rows (4-byte aligned); a slot too small for it all is replaced. */
function inSlot(taken: Slot, rows: number): Pick<ImportChunk, 'packed' | 'slot' | 'ends' | 'lines'> {
  let slot = taken;
  const tables = (output.used + 3) & ~3;
  const need = tables + 8 * rows;
  if (output.bytes !== slot.bytes || need > slot.bytes.length) {
    slotSize = Math.max(slotSize, need + (need >> 3));
    slot = slots.regrow(slot, slotSize, output.bytes, output.used);
  }
  const at = slot.bytes.byteOffset + tables;
  const shared = {
    ends: new Uint32Array(slot.bytes.buffer, at, rows),
    lines: new Uint32Array(slot.bytes.buffer, at + 4 * rows, rows),
  };
  shared.ends.set(ends.subarray(0, rows));
  shared.lines.set(lines.subarray(0, rows));
  return { packed: slot.bytes.subarray(0, output.used), slot: slot.flag, ...shared };
}
