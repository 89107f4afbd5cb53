// Runs the WebAssembly CSV scanner (wasm/csv-scan.ts, built by `npm run
// build`) over one chunk and turns what it leaves in its memory into
// TableStats. One instance per thread, compiled on first use.
import { appendFileSync, readFileSync } from 'node:fs';
import { ErrorCode } from '../../../contract/error-code.js';
import { StintError } from '../../../contract/stint-error.js';
import { StintCode } from '../../stint-codes.js';
import { Kind, LINE_SAMPLE_LIMIT, mergeTableStats, newTableStats, type TableStats } from './column-stats.js';
import { addToSum, decimalText, type DecimalSum, parseDecimal } from './exact-decimal.js';
import { processField } from './field-stats.js';
import {
  EXTRAS_CONSTANT_NAMES, EXTRAS_LAYOUT_NAMES, extrasInMemory, type ExtrasConstants,
} from './scanner-extras.js';
import { keepSketches, packExtras, settleExtras } from './stats/column-extras.js';
import { EVERY_SKETCH, Sketch } from './stats/sketch.js';
import { EXACT_LIMIT, HLL_BITS } from './stats/distinct-count.js';
import { CAPACITY } from './stats/frequent-values.js';
import { addQuantileLevel, type QuantileSketch } from './stats/quantile-sketch.js';
/** The default delimiter (csv-delimiter.ts's COMMA: the worker side imports no command module). */
const COMMA = 0x2c;

const WASM_URL = new URL('./wasm/csv-scan.wasm', import.meta.url);
const PAGE = 64 * 1024;
/** Fields the scanner may hand back before it pauses for them to be taken. */
const DEFER_CAPACITY = 4096;
/** The scanner stores addresses as i32: its memory stays below 2 GiB (the flags' caps keep it far below). */
const MEMORY_LIMIT = 2 ** 31 - PAGE;
/** A memory grown past this for one long record is let go after its chunk: a fresh instance starts small. */
const KEEP_MEMORY = 256 * 1024 * 1024;
/** When the scanner pauses, unless a test says otherwise: with a full list of fields handed back. */
const DEFAULT_LIMITS: ScannerLimits = { deferred: 0x7fffffff };
/**
 * `scanned`: at most this many columns (the first) have their statistics computed in the scanner, the
 * others' non-empty fields are all handed back (0: JavaScript computes everything, the reference for tests).
 */
interface ScannerLimits {
  readonly deferred: number;
  readonly scanned?: number;
}
let limits = DEFAULT_LIMITS;
/**
 * Tests only: a file each chunk appends `width scanned` to, the columns it had and those whose statistics the
 * scanner kept (the others' fields went to JavaScript), so a test of a wide file can see which path each took.
 */
const PATHS_FILE = process.env['STINT_TEST_SCANNER_PATHS'];

/** The scanner's exported functions; its constants are exported globals (see Constants). */
interface ScannerExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  configure(
    columnsAt: number, sumsAt: number, extrasAt: number, fieldsAt: number, reportAt: number, width: number,
    scanned: number, deferCapacity: number, delimiter: number, values: number, kept: number,
  ): void;
  extrasBytes(values: number, kept: number): number;
  reset(arenaAt: number): void;
  scan(at: number, length: number, from: number, line: number, limit: number, atEof: number): number;
  limits(deferredAt: number): void;
  isoInstant(s: number, e: number): number;
  fieldKey(s: number, len: number): number;
  sortLevels(k: number): void;
}

/** The scanner's layout and codes, exported by name from wasm/csv-scan.ts. */
const CONSTANT_NAMES = [
  'NEED_MORE', 'MALFORMED', 'PAUSED', 'UNCLOSED_QUOTE', 'TEXT_AFTER_QUOTE', 'QUOTE_IN_FIELD',
  'KIND_INTEGER', 'KIND_NUMBER', 'KIND_BOOLEAN', 'KIND_STRING',
  'COLUMN_BYTES', 'SUM_RANGE', 'SUM_SCALES', 'SUM_BYTES', 'FIELD_BYTES', 'DEFERRED_BYTES', 'RAGGED_SAMPLE',
  'COL_COUNT', 'COL_NULLS', 'COL_NUM_MIN', 'COL_NUM_MAX', 'COL_MIN_LENGTH', 'COL_MAX_LENGTH',
  'COL_KINDS', 'COL_SAW_FALSE', 'COL_SAW_TRUE',
  'COL_STR_MIN_PTR', 'COL_STR_MIN_LEN', 'COL_STR_MAX_PTR', 'COL_STR_MAX_LEN',
  'COL_NUM_MIN_PTR', 'COL_NUM_MIN_LEN', 'COL_NUM_MAX_PTR', 'COL_NUM_MAX_LEN',
  'REPORT_CONSUMED', 'REPORT_LINE', 'REPORT_ROWS', 'REPORT_RAGGED', 'REPORT_ERROR_KIND', 'REPORT_ERROR_LINE',
  'REPORT_DEFERRED', 'REPORT_RAGGED_LINES', 'REPORT_DEFERRED_LIST', 'KEEP_SPREAD', 'KEEP_VALUES',
  ...EXTRAS_CONSTANT_NAMES,
] as const;
type Constants = Record<(typeof CONSTANT_NAMES)[number], number> & ExtrasConstants;

interface Scanner {
  readonly x: ScannerExports;
  /** Its layout's entries (EXTRAS_LAYOUT_NAMES) are those of the chunk configured last. */
  readonly k: Constants;
  readonly messages: Record<number, string>;
  readonly globalOf: (name: string) => number;
}

let compiled: WebAssembly.Module | undefined;
let scanner: Scanner | undefined;
/** Where the items the scanner's quantile levels compact up go (quantileBatch): this chunk's sketches. */
let batchSketches: QuantileSketch[] = [];
let batchNumbers = new Float64Array(0);

/** The scanner's call with `count` items of column k at weight 2^level (at `at`). */
function quantileBatch(k: number, level: number, at: number, count: number): void {
  addQuantileLevel(batchSketches[k]!, level, batchNumbers.subarray(at >> 3, (at >> 3) + count));
}

/** The scanner writes what column-stats.ts and stats/*.ts read: a build that disagrees must not run. */
function agrees(k: Constants): boolean {
  return k.RAGGED_SAMPLE === LINE_SAMPLE_LIMIT
    && k.KIND_INTEGER === Kind.Integer && k.KIND_NUMBER === Kind.Number
    && k.KIND_BOOLEAN === Kind.Boolean && k.KIND_STRING === Kind.String
    && k.EXACT_LIMIT === EXACT_LIMIT && k.HLL_BITS === HLL_BITS && k.FREQUENT_SLOTS >= CAPACITY
    && k.KEEP_SPREAD === Sketch.Spread && k.KEEP_VALUES === Sketch.Values;
}

function instance(): Scanner {
  if (!scanner) {
    compiled ??= new WebAssembly.Module(readFileSync(WASM_URL));
    const exports = new WebAssembly.Instance(compiled, {
      env: {
        quantileBatch,
        abort: () => {
          throw new Error('the CSV scanner aborted');
        },
      },
    }).exports;
    const globalOf = (name: string) => (exports[name] as WebAssembly.Global).value as number;
    const k = Object.fromEntries(CONSTANT_NAMES.map((name) => [name, globalOf(name)])) as Constants;
    if (!agrees(k)) throw new Error('the CSV scanner disagrees with column-stats.ts or stats/*.ts on their constants');
    const messages = {
      [k.UNCLOSED_QUOTE]: 'a quoted field is not closed before the end of the file',
      [k.TEXT_AFTER_QUOTE]: 'characters follow a closing quote',
      [k.QUOTE_IN_FIELD]: 'a quote inside an unquoted field',
    };
    scanner = { x: exports as unknown as ScannerExports, k, messages, globalOf };
    scanner.x.limits(limits.deferred);
  }
  return scanner;
}

/**
 * For tests: pause the scanner at this many fields handed back, so the pause
 * path runs on small inputs; no argument restores the defaults.
 */
export function setScannerLimits(chosen: ScannerLimits = DEFAULT_LIMITS): void {
  limits = chosen;
  instance().x.limits(limits.deferred);
}

/** Puts bytes at the top of the scanner's memory, which holds nothing a later chunk reads before writing it. */
function placed(x: ScannerExports, text: Uint8Array): number {
  if (x.memory.buffer.byteLength < x.heapBase() + 2 * (text.length + SLACK)) {
    x.memory.grow(Math.ceil((text.length + SLACK) / PAGE));
  }
  const at = x.memory.buffer.byteLength - text.length - SLACK;
  new Uint8Array(x.memory.buffer).fill(0, at).set(text, at);
  return at;
}

/** For tests: the instant the scanner reads in an ISO 8601 date or timestamp (NaN: not one), as iso-date.ts does. */
export function scannerIsoInstant(text: Uint8Array): number {
  const { x } = instance();
  const at = placed(x, text);
  return x.isoInstant(at, at + text.length);
}

/** For tests: the scanner's hash of a field's bytes, as stats/field-hash.ts computes it. */
export function scannerFieldHash(text: Uint8Array): number {
  const { x } = instance();
  return x.fieldKey(placed(x, text), text.length);
}

const align = (offset: number) => (offset + 15) & ~15;
/** Bytes past the chunk the scanner may read (its hash reads whole words; its date reader looks past a field's end). */
const SLACK = 64;
/**
 * The most memory the columns' added statistics take in the scanner. A chunk of a wide table holds few rows, and
 * each column's record is sized by them (a few KiB), so thousands of columns fit; past this budget (short ragged
 * rows in a very wide table) the further columns' fields are handed back to JavaScript, which is slower.
 */
const EXTRAS_BUDGET = 64 * 1024 * 1024;

/**
 * The most values any column can get in `b`: one per record, and a record ends at a newline (or the end). Counted
 * only up to where the scanner lays its records out in full, and rounded up to a power of two so that chunks of
 * about one size share a layout (a new one is cleared whole).
 */
function valuesBound({ k }: Scanner, b: Uint8Array): number {
  const full = Math.min(k.EXACT_LIMIT, k.QUANTILE_BUFFER);
  let records = 1;
  for (let at = b.indexOf(0x0a); at >= 0 && records < full; at = b.indexOf(0x0a, at + 1)) records++;
  return Math.min(full, 2 ** Math.ceil(Math.log2(records)));
}

/**
 * The most rows a chunk of a table this wide may hold for the scanner to keep every column's statistics, all of
 * them asked (Infinity: any number). Past them a chunk's further columns go to the slower JavaScript path.
 */
export function rowsInScanner(width: number): number {
  const { x, k } = instance();
  const full = Math.min(k.EXACT_LIMIT, k.QUANTILE_BUFFER);
  const fits = (values: number) => width * x.extrasBytes(values, EVERY_SKETCH) <= EXTRAS_BUDGET;
  if (fits(full)) return Infinity;
  let values = full >> 1;
  while (values > 1 && !fits(values)) values >>= 1;
  // valuesBound counts a record more than a chunk's line ends.
  return values - 1;
}

/** Where the scanner's regions start for a table this wide and a chunk `b` keeping `kept`; grows memory to fit. */
function layout(s: Scanner, width: number, b: Uint8Array, delimiter: number, kept: number) {
  const { x, k } = s;
  const length = b.length;
  const values = valuesBound(s, b);
  const extrasBytes = x.extrasBytes(values, kept);
  const columnsAt = x.heapBase();
  const sumsAt = align(columnsAt + width * k.COLUMN_BYTES);
  const extrasAt = align(sumsAt + width * k.SUM_SCALES * k.SUM_BYTES);
  const scanned = Math.min(width, limits.scanned ?? width, Math.floor(EXTRAS_BUDGET / extrasBytes));
  const fieldsAt = align(extrasAt + scanned * extrasBytes);
  const reportAt = align(fieldsAt + width * k.FIELD_BYTES);
  const deferCapacity = Math.max(DEFER_CAPACITY, 2 * width);
  const arenaAt = align(reportAt + k.REPORT_DEFERRED_LIST + deferCapacity * k.DEFERRED_BYTES);
  const chunkAt = align(arenaAt + length);
  const needed = chunkAt + length + SLACK;
  if (needed > MEMORY_LIMIT) {
    const message = `a window of ${length} bytes is more than the scanner can hold`;
    throw new StintError(ErrorCode.RecordTooLong, message, { context: { line_offset: 0 } });
  }
  const have = x.memory.buffer.byteLength;
  if (needed > have) x.memory.grow(Math.ceil((needed - have) / PAGE));
  x.configure(columnsAt, sumsAt, extrasAt, fieldsAt, reportAt, width, scanned, deferCapacity, delimiter, values, kept);
  keepSketches(kept);
  for (const name of EXTRAS_LAYOUT_NAMES) k[name] = s.globalOf(name);
  // Sized by extrasBytes, laid out by configure: two sums of one layout, which must agree.
  if (k.EXTRAS_BYTES !== extrasBytes) throw new Error('the CSV scanner laid its records out past the room it asked');
  return { columnsAt, sumsAt, extrasAt, scanned, reportAt, arenaAt, chunkAt };
}

type Layout = ReturnType<typeof layout>;

/** Views of the scanner's memory for one chunk, and readers of its report and exact sums. */
function memoryViews({ x, k }: Scanner, at: Layout) {
  const memory = Buffer.from(x.memory.buffer);
  const i32 = new Int32Array(x.memory.buffer);
  const f64 = new Float64Array(x.memory.buffer);
  const report = (offset: number) => i32[(at.reportAt + offset) >> 2]!;
  const low = new BigUint64Array(x.memory.buffer);
  const high = new BigInt64Array(x.memory.buffer);
  /** Column c's 128-bit sum in one slot. */
  const sumOf = (column: number, slot: number) => {
    const word = (at.sumsAt + (column * k.SUM_SCALES + slot) * k.SUM_BYTES) >> 3;
    return (high[word + 1]! << 64n) + low[word]!;
  };
  return { memory, i32, f64, report, sumOf };
}

/** Adds a slot's sum of units with `decimals` decimals (negative: whole tens, hundreds, ...) to a running sum. */
function addSlot(sum: DecimalSum, units: bigint, decimals: number): void {
  if (units === 0n) return;
  addToSum(sum, decimals >= 0 ? { units, scale: decimals } : { units: units * 10n ** BigInt(-decimals), scale: 0 });
}

/** The statistics the scanner kept in its memory for a chunk it finished (not the fields it handed back). */
function statsInMemory(
  { x, k }: Scanner, at: Layout, width: number, views: ReturnType<typeof memoryViews>,
): TableStats {
  const { memory, i32, f64, report, sumOf } = views;
  const stats = newTableStats(width);
  stats.rows = report(k.REPORT_ROWS);
  stats.ragged.count = report(k.REPORT_RAGGED);
  const raggedAt = (at.reportAt + k.REPORT_RAGGED_LINES) >> 2;
  for (let r = 0; r < Math.min(stats.ragged.count, LINE_SAMPLE_LIMIT); r++) stats.ragged.lines.push(i32[raggedAt + r]!);
  const text = (ptr: number, length: number) =>
    (length < 0 ? null : new Uint8Array(memory.subarray(ptr, ptr + length)));
  for (let c = 0; c < width; c++) {
    const col = at.columnsAt + c * k.COLUMN_BYTES;
    const float = (offset: number) => f64[(col + offset) >> 3]!;
    const int = (offset: number) => i32[(col + offset) >> 2]!;
    const column = stats.columns[c]!;
    column.count = float(k.COL_COUNT);
    column.nulls = float(k.COL_NULLS);
    column.numMin = float(k.COL_NUM_MIN);
    column.numMax = float(k.COL_NUM_MAX);
    column.minLength = float(k.COL_MIN_LENGTH);
    column.maxLength = float(k.COL_MAX_LENGTH);
    column.kinds = int(k.COL_KINDS);
    column.sawFalse = int(k.COL_SAW_FALSE) !== 0;
    column.sawTrue = int(k.COL_SAW_TRUE) !== 0;
    for (let slot = 0; slot < k.SUM_SCALES; slot++) addSlot(column.sum, sumOf(c, slot), slot - k.SUM_RANGE);
    // A long extreme's double approximated it: its text gives the right double and the exact value.
    const exactText = (ptr: number, length: number) => {
      const written = memory.toString('latin1', ptr, ptr + length);
      const value = Number(written);
      const exact = decimalText(parseDecimal(written));
      return { value, text: String(value) === exact ? null : exact };
    };
    if (int(k.COL_NUM_MIN_LEN) >= 0) {
      ({ value: column.numMin, text: column.numMinText } = exactText(int(k.COL_NUM_MIN_PTR), int(k.COL_NUM_MIN_LEN)));
    }
    if (int(k.COL_NUM_MAX_LEN) >= 0) {
      ({ value: column.numMax, text: column.numMaxText } = exactText(int(k.COL_NUM_MAX_PTR), int(k.COL_NUM_MAX_LEN)));
    }
    column.strMin = text(int(k.COL_STR_MIN_PTR), int(k.COL_STR_MIN_LEN));
    column.strMax = text(int(k.COL_STR_MAX_PTR), int(k.COL_STR_MAX_LEN));
    if (c >= at.scanned) continue; // its non-empty fields were all handed back
    x.sortLevels(c);
    extrasInMemory(k, memory, at.extrasAt + c * k.EXTRAS_BYTES, column.extras);
  }
  return stats;
}

/**
 * Reads the records of `b` (valid UTF-8) that start before `limit`, fields
 * separated by `delimiter` (a byte: comma by default), keeping the added
 * statistics `kept` (stats/column-extras.ts's Sketch bits: all by default).
 * Returns their statistics, where they ended and the newlines passed, or
 * undefined when the last record runs past the bytes and the file goes on.
 */
export function scanChunk(
  b: Uint8Array,
  width: number,
  limit: number,
  atEof: boolean,
  delimiter = COMMA,
  kept = EVERY_SKETCH,
): { stats: TableStats; consumed: number; newlines: number } | undefined {
  const s = instance();
  const { x, k } = s;
  const at = layout(s, width, b, delimiter, kept);
  new Uint8Array(x.memory.buffer).set(b, at.chunkAt);
  x.reset(at.arenaAt);
  const views = memoryViews(s, at);
  const { memory, i32, report } = views;
  // Fields the scanner hands back are folded here, then merged with its own.
  const handedBack = newTableStats(width);
  batchSketches = handedBack.columns.map((column) => column.extras.quantiles);
  batchNumbers = new Float64Array(x.memory.buffer);
  let from = 0;
  let line = 0;
  let status: number;
  for (;;) {
    status = x.scan(at.chunkAt, b.length, from, line, limit, atEof ? 1 : 0);
    const list = (at.reportAt + k.REPORT_DEFERRED_LIST) >> 2;
    for (let d = 0; d < report(k.REPORT_DEFERRED); d++) {
      processField(handedBack.columns[i32[list + 3 * d]!]!, memory, i32[list + 3 * d + 1]!, i32[list + 3 * d + 2]!);
    }
    if (status !== k.PAUSED) break;
    from = report(k.REPORT_CONSUMED);
    line = report(k.REPORT_LINE);
  }
  if (status === k.NEED_MORE) return undefined;
  if (status === k.MALFORMED) {
    // A CSV syntax error at a line of this chunk: line_offset says which, from the chunk's first line.
    const context = { line_offset: report(k.REPORT_ERROR_LINE) };
    throw new StintError(StintCode.MalformedCsv, s.messages[report(k.REPORT_ERROR_KIND)]!, { context });
  }
  const stats = statsInMemory(s, at, width, views);
  if (PATHS_FILE) appendFileSync(PATHS_FILE, `${width} ${at.scanned}\n`);
  for (const column of handedBack.columns) settleExtras(column.extras, memory);
  mergeTableStats(stats, handedBack, 0);
  for (const column of stats.columns) packExtras(column.extras);
  const newlines = report(k.REPORT_LINE);
  if (x.memory.buffer.byteLength > KEEP_MEMORY) scanner = undefined;
  return { stats, consumed: status, newlines };
}
